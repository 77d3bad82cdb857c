/**
 * The commits a history scan reads, from one `git rev-list --parents`, split into merges and the rest and cut into
 * slices that each `git log --no-walk=unsorted --stdin` reads from its standard input.
 *
 * One walk for the whole scan: slices cut with `--skip`/`--max-count` made every git process walk the whole range again
 * (without a commit-graph, 0.85 s of CPU per process on rails' 99,000 commits). Merges get slices of their own because
 * their combined diff is asked for without rename detection (see `logArgs` in `history-source.ts`).
 */

/** Commits per slice: fewer are not worth another process. */
const MIN_SLICE = 100;
/**
 * Merges per slice, at the least: without rename detection most merges' combined diffs are short (rails: 684 merges in
 * 0.15 s of git's CPU, against 1.0 s for the 1,129 other commits), and each process costs its start.
 */
const MIN_MERGE_SLICE = 500;
/** Slices per process: a few, so that one slice of big commits does not leave the other cores idle at the end. */
const SLICES_PER_PROCESS = 2;

export interface CommitSlice {
  /** The slice's commit ids, one a line: `git log --no-walk=unsorted --stdin` reads them. */
  readonly input: Buffer;
  readonly commits: number;
  /** Merges only (two or more parents), else none. */
  readonly merges: boolean;
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

/** Reads `git rev-list --parents` output as it streams: each line's first id, as a merge or not. */
export class ParentListing {
  readonly merges = new CommitIds();
  readonly others = new CommitIds();
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
    const idEnd = data.indexOf(0x20, start);
    if (idEnd === -1 || idEnd >= end) {
      if (end > start) this.others.add(data, start, end); // a root commit
      return;
    }
    const secondParent = data.indexOf(0x20, idEnd + 1);
    const merge = secondParent !== -1 && secondParent < end;
    (merge ? this.merges : this.others).add(data, start, idEnd);
  }
}

/** The listing's commits as slices: the rest first (most of the work), then the merges. */
export function commitSlices(listing: ParentListing, processes: number): CommitSlice[] {
  return [
    ...slicesOf(listing.others, processes * SLICES_PER_PROCESS, MIN_SLICE, false),
    ...slicesOf(listing.merges, processes, MIN_MERGE_SLICE, true),
  ];
}

function slicesOf(ids: CommitIds, most: number, least: number, merges: boolean): CommitSlice[] {
  if (ids.count === 0) return [];
  const wanted = Math.min(most, Math.ceil(ids.count / least));
  const size = Math.ceil(ids.count / Math.max(1, wanted));
  const slices: CommitSlice[] = [];
  for (let from = 0; from < ids.count; from += size) {
    const to = Math.min(ids.count, from + size);
    slices.push({ input: ids.lines(from, to), commits: to - from, merges });
  }
  return slices;
}
