/**
 * The commits a history scan reads, from one `git rev-list`, cut into slices that each
 * `git log --no-walk=unsorted --stdin` reads from its standard input.
 *
 * One walk for the whole scan: slices cut with `--skip`/`--max-count` made every git process walk the whole range again
 * (without a commit-graph, 0.85 s of CPU per process on rails' 99,000 commits). Each slice is a run of the listing in its
 * order, merges where they fall: a merge's diffs read the blobs its side's commits just read, which git still holds
 * (merges in slices of their own cost git 1.4x as much on a merge-heavy history).
 */

/** Commits per slice: fewer are not worth another process. */
const MIN_SLICE = 100;
/** Slices per process: a few, so that one slice of big commits does not leave the other cores idle at the end. */
const SLICES_PER_PROCESS = 2;

export interface CommitSlice {
  /** The slice's commit ids, one a line: `git log --no-walk=unsorted --stdin` reads them. */
  readonly input: Buffer;
  readonly commits: number;
}

/** Commit ids, one a line, in one growing buffer (a long history's ids as strings would cost several times more). */
export class CommitIds {
  count = 0;
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  /** Bytes per id and its newline: every id of one repository has the same length. */
  private lineBytes = -1;

  add(source: Buffer, start: number, end: number): void {
    const line = end - start + 1;
    if (this.lineBytes === -1) this.lineBytes = line;
    else if (this.lineBytes !== line) throw new Error('commit ids of different lengths in one listing');
    if (this.length + line > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + line));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    source.copy(this.bytes, this.length, start, end);
    this.bytes[this.length + line - 1] = 0x0a;
    this.length += line;
    this.count++;
  }

  /** Ids `from` to `to` (exclusive), one a line. */
  lines(from: number, to: number): Buffer {
    return this.bytes.subarray(from * this.lineBytes, to * this.lineBytes);
  }
}

/** Reads `git rev-list` output as it streams: each line's first id (a `--parents` line lists the parents after it). */
export class CommitListing {
  readonly ids = new CommitIds();
  private carry: Buffer | null = null;

  push(chunk: Buffer): void {
    const data = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    this.carry = null;
    let at = 0;
    for (;;) {
      const nl = data.indexOf(0x0a, at);
      if (nl === -1) break;
      this.line(data, at, nl);
      at = nl + 1;
    }
    if (at < data.length) this.carry = Buffer.from(data.subarray(at));
  }

  end(): void {
    if (this.carry) this.line(this.carry, 0, this.carry.length);
    this.carry = null;
  }

  private line(data: Buffer, start: number, end: number): void {
    const space = data.indexOf(0x20, start);
    const idEnd = space === -1 || space > end ? end : space;
    if (idEnd > start) this.ids.add(data, start, idEnd);
  }
}

/** The listing's commits as slices of about equal counts, in listing order. */
export function commitSlices(listing: CommitListing, processes: number): CommitSlice[] {
  const ids = listing.ids;
  if (ids.count === 0) return [];
  // One process reads one slice: another would only decode again what the first one's git held.
  const perProcess = processes === 1 ? 1 : SLICES_PER_PROCESS;
  const wanted = Math.min(processes * perProcess, Math.ceil(ids.count / MIN_SLICE));
  const size = Math.ceil(ids.count / Math.max(1, wanted));
  const slices: CommitSlice[] = [];
  for (let from = 0; from < ids.count; from += size) {
    const to = Math.min(ids.count, from + size);
    slices.push({ input: ids.lines(from, to), commits: to - from });
  }
  return slices;
}
