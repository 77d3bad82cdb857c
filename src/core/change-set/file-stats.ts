import { lstat, lstatSync, type Stats } from 'node:fs';
import { sep } from 'node:path';

/** Look-ups done in one go on the main thread, between git's output chunks. */
const SLICE = 256;
/**
 * A slice is slow when more than this share of its look-ups put the process to sleep (voluntary context switches): a
 * look-up that waits for a disk or a network sleeps, a cached one does not. Wall time would not tell: on a loaded
 * machine the process also loses its core between look-ups that never waited.
 */
const SLOW_SHARE = 0.125;
/** Slow slices in a row before the rest go to the thread pool: the runtime's own threads' sleeps count too. */
const SLOW_SLICES = 2;

/**
 * `lstat` of the changed paths, asked for as soon as git has listed them and answered while git still writes their
 * patches. On a local file system a look-up takes a few µs, and done on the main thread, a slice at a time between
 * git's output chunks, 5,000 of them cost a quarter of the CPU they cost through libuv's thread pool (measured 33
 * against 170 ms: every pooled look-up is two thread hand-offs and a callback). On a file system where each look-up
 * waits (a network or virtual one: measured 50-190 µs each, or a cold disk) that would queue the waits one after the
 * other, so every slice is watched, and once slices turn out slow the rest are started side by side in the pool, to
 * finish while git is busy anyway. A path nobody asked for early is looked up when read.
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

  /** `slowShare`: see SLOW_SHARE (tests set it below zero to pool every look-up after the first slices). */
  constructor(
    root: string,
    private readonly slowShare = SLOW_SHARE,
  ) {
    this.rootPrefix = root === '' || root.endsWith(sep) || root.endsWith('/') ? root : `${root}${sep}`;
  }

  /** Starts the look-ups (each path once). */
  prefetch(paths: Iterable<string>): void {
    for (const path of paths) {
      if (this.asked.has(path)) continue;
      this.asked.add(path);
      this.queued.push(path);
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

  private readonly drain = (): void => {
    this.scheduled = false;
    if (this.slowSlices >= SLOW_SLICES) {
      this.startInPool();
      return;
    }
    const end = Math.min(this.next + SLICE, this.queued.length);
    const count = end - this.next;
    const sleptBefore = process.resourceUsage().voluntaryContextSwitches;
    for (; this.next < end; this.next += 1) {
      const path = this.queued[this.next]!;
      this.settled.set(path, this.lookUp(path));
    }
    const slept = process.resourceUsage().voluntaryContextSwitches - sleptBefore;
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
