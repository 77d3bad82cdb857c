import { type CompiledRule, opensAt } from './compiled-rule.js';
import type { KeywordHits } from './keyword-hits.js';
import { GateCheck } from './name-gate.js';
import type { Accepting, KeywordAutomaton } from './prefilter.js';

/**
 * Whether a scan of `text` would open any rule's window: a keyword hit (among `accepting` states) of a rule `exempt`
 * does not list, whose gate check and gate pass right after the hit, through the same `opensAt` the scan decides by; a
 * name word's hit counts as one. Rules run only in such windows, so when none opens nothing can be found
 * (`SecretScanner.mayFind`).
 */
export function opensAnyWindow(
  automaton: KeywordAutomaton<CompiledRule>,
  accepting: Accepting,
  text: string,
  exempt: readonly number[],
  found: KeywordHits,
): boolean {
  const gates = new GateCheck(text);
  let state = 0;
  for (let next = 0; next < text.length; next = found.at) {
    found.find(automaton, accepting, text, next, text.length, state);
    state = found.state;
    for (let hit = 0; hit < found.count; hit++) {
      const after = found.ends[hit]! + 1;
      for (const keyword of automaton.outputs[found.states[hit]!]!) {
        if (keyword.nameWord) return true;
        for (const compiled of keyword.items) {
          if (!exempt.includes(compiled.index) && opensAt(compiled, text, after, gates)) return true;
        }
      }
    }
  }
  return false;
}

/**
 * Whether `text` holds any keyword hit among `accepting`'s states (their hit conditions held), read as a scan reads it:
 * without one no window opens, and `scanText` finds nothing (`SecretScanner.quietTexts`). The keyword pass alone, with
 * none of a scan's set-up.
 */
export function holdsAnyHit(
  automaton: KeywordAutomaton<CompiledRule>,
  accepting: Accepting,
  text: string,
  found: KeywordHits,
): boolean {
  // A full record of hits that all failed their conditions goes on from where the pass stopped.
  for (let next = 0, state = 0; next < text.length; next = found.at, state = found.state) {
    found.find(automaton, accepting, text, next, text.length, state);
    if (found.count > 0) return true;
  }
  return false;
}
