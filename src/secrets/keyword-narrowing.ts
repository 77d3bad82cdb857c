import type { CompiledRule } from './compiled-rule.js';
import { hitContextOf } from './gate-checks.js';
import { contextSet, type HitContext } from './hit-context.js';
import type { ItemNarrowing, KeywordAutomaton } from './prefilter.js';

/**
 * A keyword's rules narrowed, at each hit, by the characters right before and right after it: a rule whose gate has
 * a hit context (`hit-context.ts`) is left out where the first position of that context on either side does not
 * hold. The keyword pass drops a hit only when every rule of its state shares one context; on a keyword several rules
 * share (`key`, `token`, `secret`), each rule with a context is left out on its own here, with one table read per side
 * and hit rather than a call per rule: the spaced provider key's gate turns down `token?` and `key.` just as it does
 * `access(`.
 *
 * Why no finding changes: a rule left out is one whose context fails at the hit, and a context is implied by its gate
 * (wherever a position fails, the gate fails right there, on any text), so its window would not have opened; the
 * positions allow ASCII only, so a UTF-8 file read a byte per character leaves a rule out only where its decoded text
 * would (the character next to the keyword is then not ASCII either), and outside the text no position holds, as in
 * the keyword pass.
 */
export class KeywordNarrowing<T> implements ItemNarrowing<T> {
  constructor(
    /** Per code below 256, the class of the character right before the hit (0: none of the contexts allows it). */
    private readonly before: Uint8Array,
    /** Per code below 256, the class of the character right after the hit. */
    private readonly after: Uint8Array,
    /** How many classes `after` has. */
    private readonly afterClasses: number,
    /** Per pair of classes (`before * afterClasses + after`), the keyword's rules that may open there, in order. */
    private readonly lists: ReadonlyArray<readonly T[]>,
  ) {}

  /** The rules that may open at the hit `bytes[at, end)`. */
  inBytes(bytes: Uint8Array, at: number, end: number): readonly T[] {
    const before = at === 0 ? 0 : this.before[bytes[at - 1]!]!;
    const after = end >= bytes.length ? 0 : this.after[bytes[end]!]!;
    return this.lists[before * this.afterClasses + after]!;
  }

  /** The rules that may open at the hit `text[at, end)`. */
  inText(text: string, at: number, end: number): readonly T[] {
    const previous = at === 0 ? 256 : text.charCodeAt(at - 1);
    const next = end >= text.length ? 256 : text.charCodeAt(end);
    const before = previous < 256 ? this.before[previous]! : 0;
    const after = next < 256 ? this.after[next]! : 0;
    return this.lists[before * this.afterClasses + after]!;
  }
}

/** Classes of the codes below 256 by which of `sets` allow them: class 0 is allowed by none (and codes past ASCII). */
function classesOf(sets: ReadonlyArray<Uint8Array | undefined>): { classes: Uint8Array; masks: number[] } {
  const classes = new Uint8Array(256);
  const masks = [0];
  const byMask = new Map([[0, 0]]);
  for (let code = 0; code < 256; code++) {
    let mask = 0;
    sets.forEach((set, index) => {
      if (set !== undefined && set[code] === 1) mask |= 1 << index;
    });
    let known = byMask.get(mask);
    if (known === undefined) {
      known = masks.length;
      byMask.set(mask, known);
      masks.push(mask);
    }
    classes[code] = known;
  }
  return { classes, masks };
}

/** The narrowing of `items` by their contexts; undefined when none has one, or too many do for a mask. */
export function narrowingOf(items: readonly CompiledRule[]): KeywordNarrowing<CompiledRule> | undefined {
  const contexts = items.map((item) => hitContextOf(item.outline.gate));
  if (contexts.every((context) => context === undefined) || items.length > 30) return undefined;
  const side = (pick: (context: HitContext) => string | undefined) =>
    contexts.map((context) => {
      const chars = context === undefined ? undefined : pick(context);
      return chars === undefined ? undefined : contextSet(chars);
    });
  const beforeSets = side((context) => context.before.at(-1));
  const afterSets = side((context) => context.after[0]);
  const before = classesOf(beforeSets);
  const after = classesOf(afterSets);
  const lists: CompiledRule[][] = [];
  for (const beforeMask of before.masks) {
    for (const afterMask of after.masks) {
      lists.push(
        items.filter(
          (_, index) =>
            (beforeSets[index] === undefined || (beforeMask & (1 << index)) !== 0) &&
            (afterSets[index] === undefined || (afterMask & (1 << index)) !== 0),
        ),
      );
    }
  }
  return new KeywordNarrowing(before.classes, after.classes, after.masks.length, lists);
}

/** Gives each keyword of `automaton` whose rules have contexts its narrowing (`KeywordOutput.narrowing`). */
export function narrowKeywords(automaton: KeywordAutomaton<CompiledRule>): void {
  for (const list of automaton.outputs) {
    for (const keyword of list ?? []) {
      if (keyword.narrowing === null) keyword.narrowing = narrowingOf(keyword.items) ?? null;
    }
  }
}
