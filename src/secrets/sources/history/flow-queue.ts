import type { OutputControl } from '../../../core/process.js';

/**
 * Batches made by git readers, waiting for the scanner. Above `highWater` queued bytes every reader is paused (git then
 * blocks on a full pipe), below `lowWater` they resume: memory stays bounded whichever side is faster.
 */
export class FlowQueue<T> {
  private readonly items: Array<{ item: T; bytes: number }> = [];
  private readonly controls = new Set<OutputControl>();
  private bytes = 0;
  private paused = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly highWater = 8 * 1024 * 1024,
    private readonly lowWater = 2 * 1024 * 1024,
  ) {}

  /** For `runProcess`'s `outputControl`. */
  readonly control = (control: OutputControl): void => {
    this.controls.add(control);
    if (this.paused) control.pause();
  };

  push(item: T, bytes: number): void {
    this.items.push({ item, bytes });
    this.bytes += bytes;
    if (!this.paused && this.bytes > this.highWater) {
      this.paused = true;
      for (const control of this.controls) control.pause();
    }
    this.poke();
  }

  /** Wakes the consumer (a reader finished or failed). */
  poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  shift(): T | undefined {
    const next = this.items.shift();
    if (!next) return undefined;
    this.bytes -= next.bytes;
    if (this.paused && this.bytes < this.lowWater) this.resumeAll();
    return next.item;
  }

  /** Resolves at the next `push` or `poke`. */
  waitForMore(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  /**
   * Hands out every item as it comes, until `state` says the readers are done (and the queue is empty) or one failed
   * (then its error is thrown).
   */
  async *drain(state: () => { done: boolean; failure: unknown }): AsyncGenerator<T> {
    for (;;) {
      const item = this.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      const { done, failure } = state();
      if (failure !== null) throw failure;
      if (done) return;
      await this.waitForMore();
    }
  }

  /** Lets every reader run to its end (after the consumer stopped and git was told to stop). */
  resumeAll(): void {
    this.paused = false;
    for (const control of this.controls) control.resume();
  }
}
