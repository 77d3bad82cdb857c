/**
 * A fixed number of async lanes that take items from one queue, so that the calls in flight (and the promises and
 * closures they hold) are bounded by the pool, not by the input. A walk of 150,000 files that made a promise per file
 * up front held them all at once and peaked at over 700 MB; items here are plain data handed to one handler, and a
 * handler may add more items (the files of a folder just read).
 *
 * Items are taken last in, first out: a folder's entries are worked before the next folder is read, which keeps the
 * queue about one folder long.
 */
export class WorkPool<T> {
  private readonly queue: T[] = [];
  private running = 0;
  private failure: { error: unknown } | null = null;
  private waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  /** The most handler calls that were ever in flight at once (tests check it against the limit). */
  peakRunning = 0;

  constructor(
    private readonly limit: number,
    private readonly handle: (item: T) => Promise<void>,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`WorkPool: limit must be a whole number ≥ 1, got ${limit}`);
  }

  add(item: T): void {
    if (this.failure) return;
    this.queue.push(item);
    if (this.running < this.limit) void this.lane();
  }

  /** Settles once every item added (and every item those added) is handled; rejects with the first failure. */
  drained(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private async lane(): Promise<void> {
    this.running++;
    this.peakRunning = Math.max(this.peakRunning, this.running);
    try {
      while (this.queue.length > 0 && !this.failure) await this.handle(this.queue.pop() as T);
    } catch (error) {
      // The first failure ends the pool: nothing queued runs after it, and `drained` rejects with it.
      this.failure ??= { error };
      this.queue.length = 0;
    } finally {
      this.running--;
      if (this.running === 0 && (this.queue.length === 0 || this.failure)) this.settle();
    }
  }

  private settle(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      if (this.failure) waiter.reject(this.failure.error);
      else waiter.resolve();
    }
  }
}
