import {
  closeSync,
  constants,
  fstatSync,
  lstat,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  type Stats,
} from 'node:fs';
import { sep } from 'node:path';

/** Look-ups done in one go on the main thread, between git's output chunks. */
const SLICE = 256;
/**
 * A slice is slow when more than this share of its look-ups put the main thread to sleep (voluntary context
 * switches): a look-up that waits for a disk or a network sleeps, a cached one does not. Wall time would not tell: on
 * a loaded machine the process also loses its core between look-ups that never waited.
 */
const SLOW_SHARE = 0.125;
/** Slow slices in a row before the rest go to the thread pool. */
const SLOW_SLICES = 2;
/**
 * At most this many bytes of content are read early and held until read (beyond it, files are read when asked): a
 * change of thousands of files each near the size cap must not sit in memory at once.
 */
const EARLY_READ_BUDGET = 64 * 1024 * 1024;
/** Early reads share buffers of this size (one allocation for hundreds of small files); a larger file gets its own. */
const SLAB_SIZE = 1024 * 1024;
/** Never blocks (a FIFO put where a file was), never follows a link (a link's stats are its own, as with lstat). */
const EARLY_OPEN = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Reading the content of the regular files looked up early: those within `maxFileSize` bytes are read whole. */
export interface EarlyReads {
  maxFileSize: number;
}

/**
 * `lstat` of the changed paths, asked for as soon as git has listed them and answered while git still writes their
 * patches. On a local file system a look-up takes a few µs, and done on the main thread, a slice at a time between
 * git's output chunks, 5,000 of them cost a quarter of the CPU they cost through libuv's thread pool (measured 33
 * against 170 ms: every pooled look-up is two thread hand-offs and a callback). On a file system where each look-up
 * waits (a network or virtual one: measured 50-190 µs each, or a cold disk) that would queue the waits one after the
 * other, so every slice is watched, and once slices turn out slow the rest are started side by side in the pool, to
 * finish while git is busy anyway. A path nobody asked for early is looked up when read.
 *
 * With `EarlyReads`, a regular file asked for with `read` is opened instead, its stats taken from the open file and,
 * when it is within the size cap, its bytes read at once (`takeContent`): the content a validator asks for next is then
 * already here, with no second open, stat and read of the same file later, and the reading happened while git wrote
 * patches. Those bytes are what was on disk at that moment, not yet the snapshot's: the reader still checks them
 * against the snapshot's blob id (content-cache.ts).
 */
export class FileStats {
  private readonly settled = new Map<string, Stats | null>();
  private readonly asked = new Set<string>();
  private readonly queued: string[] = [];
  private next = 0;
  private slowSlices = 0;
  private scheduled = false;
  private outstanding = 0;
  private waiting: Array<() => void> = [];

  private readonly rootPrefix: string;
  private readonly toRead = new Set<string>();
  private readonly contents = new Map<string, Buffer>();
  private budget = EARLY_READ_BUDGET;
  private slab: Buffer | null = null;
  private slabUsed = 0;

  /** `slowShare`: see SLOW_SHARE (tests set it below zero to pool every look-up after the first slices). */
  constructor(
    root: string,
    private readonly slowShare = SLOW_SHARE,
    private readonly reads?: EarlyReads,
  ) {
    this.rootPrefix = root === '' || root.endsWith(sep) || root.endsWith('/') ? root : `${root}${sep}`;
  }

  /** Starts the look-ups (each path once); `read`: the paths are regular files whose content is read too. */
  prefetch(paths: Iterable<string>, read = false): void {
    for (const path of paths) {
      if (this.asked.has(path)) continue;
      this.asked.add(path);
      this.queued.push(path);
      if (read && this.reads) this.toRead.add(path);
    }
    if (!this.scheduled && this.next < this.queued.length) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  /** Settles once every look-up started so far has answered. */
  ready(): Promise<void> {
    if (this.done()) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The path's stats (null: not there, or not readable), from the look-up started early when there was one. */
  of(path: string): Stats | null {
    const early = this.settled.get(path);
    return early !== undefined ? early : this.lookUp(path);
  }

  /** The bytes read early for the path, handed over once (the reader keeps them from here on). */
  takeContent(path: string): Buffer | undefined {
    const bytes = this.contents.get(path);
    this.contents.delete(path);
    return bytes;
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    if (this.slowSlices >= SLOW_SLICES) {
      this.startInPool();
      return;
    }
    const end = Math.min(this.next + SLICE, this.queued.length);
    const count = end - this.next;
    const sleptBefore = mainThreadSleeps();
    for (; this.next < end; this.next += 1) {
      const path = this.queued[this.next]!;
      this.settled.set(path, this.toRead.has(path) ? this.readEarly(path) : this.lookUp(path));
    }
    const slept = mainThreadSleeps() - sleptBefore;
    const slow = slept > count * this.slowShare;
    this.slowSlices = slow ? this.slowSlices + 1 : 0;
    if (this.next < this.queued.length) {
      this.scheduled = true;
      setImmediate(this.drain);
    } else this.wake();
  };

  private startInPool(): void {
    for (; this.next < this.queued.length; this.next += 1) {
      const path = this.queued[this.next]!;
      this.outstanding += 1;
      lstat(this.absolute(path), (error, stats) => {
        this.settled.set(path, error ? null : stats);
        this.outstanding -= 1;
        this.wake();
      });
    }
  }

  private lookUp(path: string): Stats | null {
    try {
      return lstatSync(this.absolute(path), { throwIfNoEntry: false }) ?? null;
    } catch {
      return null;
    }
  }

  /**
   * The stats of the open file, and its bytes when it is a regular file within the cap and the budget. Anything that
   * cannot be opened this way (a symbolic link, a socket, a missing path) is looked up as any other path.
   */
  private readEarly(path: string): Stats | null {
    let fd: number;
    try {
      fd = openSync(this.absolute(path), EARLY_OPEN);
    } catch {
      return this.lookUp(path);
    }
    try {
      const stats = fstatSync(fd);
      if (stats.isFile() && stats.size <= this.reads!.maxFileSize && stats.size <= this.budget) {
        this.budget -= stats.size;
        this.contents.set(path, this.readAll(fd, stats.size));
      }
      return stats;
    } catch {
      this.contents.delete(path);
      return this.lookUp(path);
    } finally {
      closeSync(fd);
    }
  }

  /** Up to `size` bytes from the start of the open file (fewer when it shrank meanwhile: the blob check catches it). */
  private readAll(fd: number, size: number): Buffer {
    const bytes = this.room(size);
    let read = 0;
    for (let count = 1; read < size && count > 0; read += count) count = readSync(fd, bytes, read, size - read, read);
    return bytes.subarray(0, read);
  }

  /** `size` bytes of a shared slab, or a buffer of its own for a file larger than a quarter of one. */
  private room(size: number): Buffer {
    if (size > SLAB_SIZE / 4) return Buffer.allocUnsafeSlow(size);
    if (this.slab === null || this.slabUsed + size > SLAB_SIZE) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
      this.slabUsed = 0;
    }
    const bytes = this.slab.subarray(this.slabUsed, this.slabUsed + size);
    this.slabUsed += size;
    return bytes;
  }

  /**
   * Git's paths are already normal (no `.`, `..` or doubled slashes), so the root and the path are joined as they are:
   * `path.join` normalizing every one of 5,000 paths again cost about a third of their look-ups.
   */
  private absolute(path: string): string {
    return this.rootPrefix + path;
  }

  private done(): boolean {
    return this.next === this.queued.length && this.outstanding === 0;
  }

  private wake(): void {
    if (this.done()) for (const wake of this.waiting.splice(0)) wake();
  }
}

/** Where Linux counts this thread's own sleeps; null once it turned out not to be there. */
let threadStatus: string | null = '/proc/thread-self/status';

/**
 * How often the main thread went to sleep so far. On Linux, its own count: the whole process's also counts the
 * runtime's other threads (the garbage collector's helpers wake and sleep by the hundred while git's output is parsed),
 * which made slices of cached look-ups count as slow on a busy machine. Elsewhere, the whole process's.
 */
function mainThreadSleeps(): number {
  if (threadStatus !== null) {
    try {
      const match = /\nvoluntary_ctxt_switches:\s*(\d+)/.exec(readFileSync(threadStatus, 'latin1'));
      if (match) return Number(match[1]);
    } catch {
      // Not Linux, or no /proc: the process's count below.
    }
    threadStatus = null;
  }
  return process.resourceUsage().voluntaryContextSwitches;
}
