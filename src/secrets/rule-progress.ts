/**
 * Per-rule progress arrays: per rule, the offset of the whole text up to which it has run, -1 before it has, or
 * everything for a rule whose own path filter exempts the text's path. Made once and lent to one scan at a time:
 * copying a fresh one per text (one per rule, hundreds of rules) cost more than scanning the few lines most texts of a
 * history scan hold. Scans may overlap (streams read side by side, a Kubernetes Secret's decoded values), so each
 * takes its own.
 */
export class RuleProgressPool {
  /** Arrays no scan holds, every entry -1. */
  private readonly idle: Float64Array[] = [];

  constructor(private readonly rules: number) {}

  /** A scan's array: -1 for every rule but the `exempt` ones. */
  take(exempt: readonly number[]): Float64Array {
    const progress = this.idle.pop() ?? new Float64Array(this.rules).fill(-1);
    // Indexed: once per text, run cold through a history's first texts (`for … of` made an iterator result a rule).
    for (let i = 0; i < exempt.length; i++) progress[exempt[i]!] = Number.POSITIVE_INFINITY;
    return progress;
  }

  /**
   * Takes back the array of a scan that has ended, reset where it was set: at the `exempt` rules, and at the rules
   * that ran (a rule's progress is set only where a window of it opens, and every window opened has run by the end).
   */
  give(progress: Float64Array, ran: Iterable<number>, exempt: readonly number[]): void {
    for (const index of ran) progress[index] = -1;
    for (let i = 0; i < exempt.length; i++) progress[exempt[i]!] = -1;
    this.idle.push(progress);
  }
}
