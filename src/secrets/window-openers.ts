import { type CompiledRule, opensAt } from './compiled-rule.js';
import { queueLineWindow } from './line-windows.js';
import type { WindowRunner } from './pending-windows.js';
import { runRuleWindow } from './run-rule-window.js';
import type { Hits, ScanState } from './scan-state.js';

// How the scanner's hot path (scanner.ts) opens a rule's window at a keyword hit, and runs the windows it queued.

/** A hit of one of `compiled`'s keywords at `text[at, after)`: cuts the rule's window and runs it or queues it. */
export function openWindow(compiled: CompiledRule, at: number, after: number, hits: Hits): void {
  const { text, base } = hits;
  if (!opensAt(compiled, text, after, hits.gates)) return;
  if (!compiled.block) {
    queueLineWindow(hits, compiled.index, compiled.rule, at);
    return;
  }
  const start = Math.max(0, at - 64);
  const end = Math.min(text.length, at + compiled.maxLength);
  hits.scannedUntil[compiled.index] = base + end;
  runRuleWindow(compiled, text, start, end, hits.scan, false, base);
}

/** A keyword of `compiled` found by the name walk at `text[at, after)`. */
export function openNamed(compiled: CompiledRule, at: number, after: number, hits: Hits): void {
  if (hits.base + at >= hits.scannedUntil[compiled.index]!) openWindow(compiled, at, after, hits);
}

/** The pending windows of one `advance`, run on its text (a class: one call target, see `WindowRunner`). */
export class TextWindows implements WindowRunner {
  constructor(
    private readonly compiled: readonly CompiledRule[],
    private readonly text: string,
    private readonly scan: ScanState,
    private readonly base: number,
  ) {}

  runWindow(rule: number, start: number, end: number, cutShort: boolean): void {
    runRuleWindow(this.compiled[rule]!, this.text, start, end, this.scan, cutShort, this.base);
  }
}
