import { closeSync, realpathSync } from 'node:fs';
import { ReusableFileReader } from './file-reader.js';
import {
  emptyScanOutcome,
  HARD_MAX_BYTES,
  type ScanOutcome,
  type ScanTargetsOptions,
  type SkippedTarget,
  scanContent,
  tooLarge,
} from './scan-targets.js';
import { linkedFileSync } from './sources/linked-file.js';
import { type ListedFileFound, lookAtOpenFile, openListedFile } from './sources/listed-file.js';
import { STREAM_BYTES, scanFileInWindows } from './stream-file.js';

/**
 * The work loop each scanning thread runs (the main thread and every worker alike): claim the next file from a queue
 * shared through one atomic claim word (`claimIndex`), read it synchronously into a reused buffer, scan it. No message
 * per file, and a thread that gets large files simply claims fewer. Files are listed largest first: the workers take
 * them from the front, so no thread ends with a big one, and the main thread, when workers share the queue, from the
 * back (`fromBack`), so that it and they meet in the middle. Files over `STREAM_BYTES` are scanned from disk in
 * windows.
 */
export interface QueuedFile {
  readonly path: string;
  readonly absolute: string;
  /** Its size when listed; for an unchecked file, the index's (a hint only). */
  readonly size: number;
  /** Listed from git's index without a look at it (`DiskFile.unchecked`): opened with `openListedFile`. */
  readonly unchecked?: true;
}

/**
 * The next index of a queue of `length` files, from its front or from its back; -1 when every index is claimed. The
 * word holds the front's claims in its low 32 bits and the back's in the high 32, so one compare-exchange takes an
 * index from either end and the two ends never cross: each index is claimed once, whatever the interleaving.
 */
export function claimIndex(word: BigInt64Array, length: number, fromBack: boolean): number {
  for (;;) {
    const now = Atomics.load(word, 0);
    const front = Number(now & 0xffffffffn);
    const back = Number(now >> 32n);
    if (front + back >= length) return -1;
    if (Atomics.compareExchange(word, 0, now, now + (fromBack ? 0x100000000n : 1n)) === now) {
      return fromBack ? length - 1 - back : front;
    }
  }
}

/**
 * `fromBack`: claim the smallest files first. The main thread does when workers share the queue: each isolate then
 * compiles and warms what its own kind of file runs (the workers the long lines and large tiles, this thread the
 * per-file path of many small files) rather than both of them everything, and this thread's reused buffers, sized by
 * the largest file it reads, are never made and faulted in at the size of the queue's largest files (two threads on
 * the npm corpus: about 1-3 % less CPU, 2-4 % less wall, docs/benchmarks.md "V8's platform threads' compiles").
 */
export function scanQueue<F extends QueuedFile>(
  files: readonly F[],
  claim: BigInt64Array,
  options: ScanTargetsOptions,
  read: (file: F) => () => Promise<Buffer | string | null>,
  repoRoot: string,
  fromBack = false,
): ScanOutcome {
  const reader = new ReusableFileReader();
  const outcome = emptyScanOutcome();
  // The queue's bytes: a thread that shares it reads only a part, but a queue that pays for workers is far larger
  // than the WebAssembly loop needs.
  let bytes = 0;
  for (const file of files) bytes += file.size;
  options.scanner.expectBytes(bytes);
  const unchecked: UncheckedScan = { reader, outcome, options, realRoot: new RealRoot(repoRoot) };
  for (;;) {
    const index = claimIndex(claim, files.length, fromBack);
    if (index < 0) break;
    const file = files[index]!;
    const readFile = read(file);
    let size = file.size;
    let fd = -1;
    if (file.unchecked) {
      const opened = openUnchecked(file, unchecked, readFile);
      if (opened === null) continue;
      ({ size, fd } = opened);
    }
    const target = { path: file.path, absolute: file.absolute, read: readFile };
    let content: Buffer;
    try {
      if (size > STREAM_BYTES) {
        if (fd >= 0) fd = closed(fd);
        if (scanFileInWindows(target, options, outcome)) continue;
      }
      // Read whole, a file past the cap would only be skipped after filling memory with it.
      if (size > HARD_MAX_BYTES) {
        outcome.skipped.push(tooLarge(file.path, size));
        continue;
      }
      content = fd >= 0 ? reader.readOpen(fd, size) : reader.read(file.absolute, size);
    } catch (error) {
      outcome.skipped.push(notRead(file, size, error));
      continue;
    } finally {
      if (fd >= 0) closeSync(fd);
    }
    scanContent(target, content, options, outcome);
  }
  return outcome;
}

/** What `openUnchecked` works with: the thread's reader and outcome, the scan's options, the repository's real path. */
interface UncheckedScan {
  reader: ReusableFileReader;
  outcome: ScanOutcome;
  options: ScanTargetsOptions;
  realRoot: RealRoot;
}

/**
 * Opens a file listed unchecked and does what the listing's `lstat` would have decided: null when nothing is left to
 * do (scanned whole from the index's count of bytes, skipped and reported, or gone), else its size now and its open
 * descriptor (-1 for a link, read through its path) for the caller to read as any listed file.
 */
function openUnchecked(
  file: QueuedFile,
  scan: UncheckedScan,
  read: () => Promise<Buffer | string | null>,
): { size: number; fd: number } | null {
  const { outcome } = scan;
  let found: ListedFileFound;
  try {
    found = openListedFile(file.absolute);
  } catch (error) {
    outcome.skipped.push(notRead(file, file.size, error));
    return null;
  }
  if (found === 'gone') return null;
  if (found === 'link') {
    // A link where the index has a file: what the listing would have made of it.
    const linked = linkedFileSync(file.absolute, scan.realRoot.path());
    if (linked === null) return null;
    if ('skip' in linked) {
      outcome.skipped.push({ path: file.path, ...linked.skip });
      return null;
    }
    return { size: linked.size, fd: -1 };
  }
  const { fd } = found;
  let exact: Buffer | null | 'gone';
  try {
    exact = uncheckedBytes(scan.reader, fd, file.size);
  } catch (error) {
    closeSync(fd);
    outcome.skipped.push(notRead(file, file.size, error));
    return null;
  }
  if (exact !== null) {
    closeSync(fd);
    if (exact !== 'gone') scanContent({ path: file.path, read }, exact, scan.options, outcome);
    return null;
  }
  // Not the index's count of bytes: its size now decides, as the listing's `lstat` did.
  const now = lookAtOpenFile(fd);
  if (now === null) {
    closeSync(fd);
    return null;
  }
  return { size: now, fd };
}

/**
 * An unchecked file's bytes when it holds exactly the index's count (the usual case: one open, reads, one close, no
 * `fstat`), null when it must be looked at, 'gone' for a folder or FIFO (a read of which fails). A file the index
 * says is large is looked at first, as it may be streamed.
 */
function uncheckedBytes(reader: ReusableFileReader, fd: number, size: number): Buffer | null | 'gone' {
  if (size > STREAM_BYTES) return null;
  try {
    return reader.readExactly(fd, size);
  } catch (error) {
    // EISDIR, ESPIPE: no regular file. Else a file that cannot be read, reported as before.
    if (lookAtOpenFile(fd) === null) return 'gone';
    throw error;
  }
}

function closed(fd: number): number {
  closeSync(fd);
  return -1;
}

/** The repository's real path, against which a link's target is judged as the listing judges it; found once. */
class RealRoot {
  private real: string | undefined;

  constructor(private readonly root: string) {}

  path(): string {
    if (this.real === undefined) {
      try {
        this.real = realpathSync(this.root);
      } catch {
        this.real = this.root;
      }
    }
    return this.real;
  }
}

/** Why a file could not be read: a text too long for one string is more than can be held, not unreadable. */
function notRead(file: QueuedFile, size: number, error: unknown): SkippedTarget {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_STRING_TOO_LONG') return tooLarge(file.path, size);
  return { path: file.path, reason: 'unreadable', detail: code ?? 'read failed' };
}
