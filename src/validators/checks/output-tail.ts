import { isFailureLine } from '../../core/run/failure-excerpt.js';
import { stripAnsi } from '../../core/terminal-text.js';

/**
 * What a report shows of a check's output: the true last lines (not the end of a capped prefix), and the lines that
 * name a failure, which a long passing tail would otherwise bury. Fed chunk by chunk, in arrival order, so memory stays
 * bounded whatever the output's size; the full output goes to the run folder's log separately.
 */

/** Longest line kept as is; a longer one is cut (minified output, JSON blobs). */
const MAX_LINE_CHARS = 2_000;

export interface OutputTailOptions {
  /** Last lines kept. */
  lines: number;
  /** Upper bound on the bytes those lines may hold together. */
  bytes: number;
  /** Failure lines kept, first ones first (the first failure is usually the cause). */
  failureLines: number;
}

export class OutputTail {
  private readonly ring: string[] = [];
  private ringBytes = 0;
  /** The unfinished last line of each stream: stdout and stderr interleave by line, never mid-line. */
  private readonly partials = new Map<string, string>();
  private total = 0;
  private readonly failures: string[] = [];
  private failuresSeen = 0;

  constructor(private readonly options: OutputTailOptions) {}

  /** Adds a chunk of one stream's output; a line split across chunks is joined first. */
  push(chunk: Buffer | string, stream = 'stdout'): void {
    const text = (this.partials.get(stream) ?? '') + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    const lines = text.split('\n');
    let rest = lines.pop() ?? '';
    // A line that never ends (progress bars, one huge JSON) must not grow without bound.
    if (rest.length > MAX_LINE_CHARS * 4) {
      lines.push(rest);
      rest = '';
    }
    this.partials.set(stream, rest);
    for (const line of lines) this.addLine(line);
  }

  /** The report's excerpt: failure lines first (when the tail does not already show them), then the tail. */
  render(): string {
    for (const [stream, rest] of this.partials) {
      if (rest !== '') this.addLine(rest);
      this.partials.set(stream, '');
    }
    const lines = [...this.ring];
    const total = this.total;
    while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
    const omitted = total - lines.length;
    const parts: string[] = [];
    const shown = new Set(lines);
    const unseen = this.failures.filter((line) => !shown.has(line));
    if (unseen.length > 0) {
      const more = this.failuresSeen - this.failures.length;
      parts.push(
        `failure lines found earlier in the output${more > 0 ? ` (first ${this.failures.length} of ${this.failuresSeen})` : ''}:`,
      );
      parts.push(...unseen, '');
    }
    if (omitted > 0) parts.push(`… ${omitted} earlier line(s) omitted`);
    parts.push(...lines);
    return parts.join('\n');
  }

  /**
   * What identifies this failure, stable across reruns of the same failure and different for another one: the failure
   * lines (or, with none, the last 20 lines) with numbers, durations, hex ids and temp paths blanked out.
   */
  signature(): string {
    const lines = this.failures.length > 0 ? this.failures : this.ring.slice(-20);
    return lines
      .map((line) =>
        line
          .replace(/\/(?:tmp|var\/folders|private\/var)\/[^\s:'"]+/g, '<tmp>')
          .replace(/\b[0-9a-f]{7,}\b/gi, '<hex>')
          .replace(/\d+(?:\.\d+)?\s?(?:ms|s|m)\b/g, '<time>')
          .replace(/\d+/g, 'N')
          .replace(/\s+/g, ' ')
          .trim(),
      )
      .filter((line) => line !== '')
      .join('\n');
  }

  private addLine(raw: string): void {
    const line = clip(stripAnsi(raw).replace(/\r$/, ''));
    this.total += 1;
    if (isFailureLine(line)) {
      this.failuresSeen += 1;
      if (this.failures.length < this.options.failureLines) this.failures.push(line);
    }
    this.ring.push(line);
    this.ringBytes += Buffer.byteLength(line) + 1;
    while (this.ring.length > this.options.lines || (this.ringBytes > this.options.bytes && this.ring.length > 1)) {
      this.ringBytes -= Buffer.byteLength(this.ring.shift()!) + 1;
    }
  }
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} … (${line.length} chars)` : line;
}
