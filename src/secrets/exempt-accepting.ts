import type { CompiledRule } from './compiled-rule.js';
import { type Accepting, acceptingOf, type KeywordAutomaton } from './prefilter.js';

/**
 * Per set of exempt rules, the automaton's accepting states less those whose keywords only exempt rules use:
 * `.pgpass`'s `:` keyword is on every other line of code, and each hit of it would be recorded and handled only to find
 * its one rule exempt. Keyed by the set's one array, which every path with that set shares (`PathFacts.exempt`), not
 * by its indices joined anew at each text.
 */
export class ExemptAccepting {
  private readonly byExempt = new Map<readonly number[], Accepting>();
  private readonly all: Accepting;

  constructor(private readonly automaton: KeywordAutomaton<CompiledRule>) {
    this.all = acceptingOf(automaton.accepting);
  }

  for(exempt: readonly number[]): Accepting {
    if (exempt.length === 0) return this.all;
    let own = this.byExempt.get(exempt);
    if (own !== undefined) return own;
    const { accepting, outputs } = this.automaton;
    const skip = new Set(exempt);
    const states = accepting.slice();
    for (let state = 0; state < states.length; state++) {
      const list = outputs[state];
      if (states[state] === 0 || list === undefined) continue;
      const idle = list.every(
        (keyword) => !keyword.nameWord && keyword.items.every((compiled) => skip.has(compiled.index)),
      );
      if (idle) states[state] = 0;
    }
    own = acceptingOf(states);
    this.byExempt.set(exempt, own);
    return own;
  }
}
