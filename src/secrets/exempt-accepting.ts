import type { CompiledRule } from './compiled-rule.js';
import { hitContextOf } from './gate-checks.js';
import { conditionsOf, FIRST_CONDITION, type HitConditions, type HitContext, MAX_CONDITIONS } from './hit-context.js';
import { type Accepting, acceptingOf, type KeywordAutomaton, type KeywordOutput } from './prefilter.js';

/**
 * Per set of exempt rules, the automaton's accepting states less those whose keywords only exempt rules use:
 * `.pgpass`'s `:` keyword is on every other line of code, and each hit of it would be recorded and handled only to find
 * its one rule exempt. Keyed by the set's one array, which every path with that set shares (`PathFacts.exempt`), not
 * by its indices joined anew at each text.
 *
 * A state whose hits only rules of one hit context could use (one keyword, no name word, each rule not exempt gated
 * with that context) is marked with that context's condition, which the keyword pass checks before it records a hit
 * there (`hit-context.ts`): the `.` of the bare Discord token, the `|` of the Facebook app token.
 */
export class ExemptAccepting {
  private readonly byExempt = new Map<readonly number[], Accepting>();
  private readonly all: Accepting;
  /** Per context and keyword length, its condition's mark; and the conditions, in mark order. */
  private readonly marks = new Map<HitContext, Map<number, number>>();
  private readonly conditions: HitConditions;

  constructor(private readonly automaton: KeywordAutomaton<CompiledRule>) {
    const contexts: Array<{ context: HitContext; length: number }> = [];
    for (const list of automaton.outputs) {
      const context = list === undefined ? undefined : contextOf(list, []);
      if (context === undefined || contexts.length === MAX_CONDITIONS) continue;
      const length = list![0]!.length;
      const byLength = this.marks.get(context) ?? new Map<number, number>();
      this.marks.set(context, byLength);
      if (byLength.has(length)) continue;
      byLength.set(length, FIRST_CONDITION + contexts.length);
      contexts.push({ context, length });
    }
    this.conditions = conditionsOf(contexts);
    this.all = this.acceptingWithout([]);
  }

  for(exempt: readonly number[]): Accepting {
    if (exempt.length === 0) return this.all;
    let own = this.byExempt.get(exempt);
    if (own !== undefined) return own;
    own = this.acceptingWithout(exempt);
    this.byExempt.set(exempt, own);
    return own;
  }

  private acceptingWithout(exempt: readonly number[]): Accepting {
    const { accepting, outputs } = this.automaton;
    const skip = new Set(exempt);
    const states = accepting.slice();
    for (let state = 0; state < states.length; state++) {
      const list = outputs[state];
      if (states[state] === 0 || list === undefined) continue;
      const idle = list.every(
        (keyword) => !keyword.nameWord && keyword.items.every((compiled) => skip.has(compiled.index)),
      );
      if (idle) {
        states[state] = 0;
        continue;
      }
      const context = contextOf(list, exempt);
      const mark = context === undefined ? undefined : this.marks.get(context)?.get(list[0]!.length);
      if (mark !== undefined) states[state] = mark;
    }
    return acceptingOf(states, this.conditions);
  }
}

/** The one hit context every rule not `exempt` that a state's hits could reach is gated with; none if any is not. */
function contextOf(
  list: ReadonlyArray<KeywordOutput<CompiledRule>>,
  exempt: readonly number[],
): HitContext | undefined {
  if (list.length !== 1 || list[0]!.nameWord) return undefined;
  let context: HitContext | undefined;
  for (const compiled of list[0]!.items) {
    if (exempt.includes(compiled.index)) continue;
    const own = hitContextOf(compiled.outline.gate);
    if (own === undefined || (context !== undefined && own !== context)) return undefined;
    context = own;
  }
  return context;
}
