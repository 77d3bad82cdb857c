import { type HitConditions, NO_CONDITIONS } from './hit-context.js';

/**
 * The keyword prefilter: one pass over a buffer that finds every occurrence of every rule keyword, ASCII
 * case-insensitively, with an Aho-Corasick automaton compiled to a flat transition table. Rules run only in a window
 * around these hits, which is what keeps the scanner fast on ordinary code.
 *
 * Measured on 256 MB of npm sources (2-core box): this loop runs at about 440 MB/s, where one V8 regex alternation of
 * the same 217 keywords with the `i` flag runs at about 140 MB/s.
 */

/** A keyword occurrence: the keyword's length and the items (rules) registered for it. */
export interface KeywordOutput<T> {
  readonly length: number;
  readonly items: readonly T[];
  /** A name word (see `SecretRule.nameWords`): the name before it is to be searched for the keywords of such rules. */
  readonly nameWord: boolean;
}

export interface KeywordAutomaton<T> {
  /**
   * Transition table: `delta[(state << shift) | classes[code]]`. 16-bit while the states fit, so the table's hot rows
   * stay in cache as keywords are added (each keyword adds states, and the scan's per-byte step reads this table).
   */
  readonly delta: Uint16Array | Int32Array;
  /**
   * Per UTF-16 code unit (a byte read as one), its column in `delta`: one per character some keyword holds (upper case
   * as lower case), and 0 for every other, from which every state goes where it goes on any character no keyword
   * holds. A row is then as wide as the keywords' characters need (64 for the built-in rules' 51, not 128): the
   * table the per-byte step reads is half as large, and more of it stays in cache beside the rest of the scan.
   */
  readonly classes: Uint8Array;
  /** log2 of a row's width in `delta`. */
  readonly shift: number;
  /** Per state, the keywords that end there (including those that end in a suffix of it); empty for most states. */
  readonly outputs: ReadonlyArray<ReadonlyArray<KeywordOutput<T>> | undefined>;
  /** Per state, 1 where some keyword ends (`outputs` has a list). */
  readonly accepting: Uint8Array;
  /**
   * The states where keywords end are numbered last, from this number on: the per-character loop tells a hit by one
   * comparison of the state it has just loaded, with no second table to read (the loop is the scan's hottest code).
   * States whose keywords only path-bound items use (see `buildKeywordAutomaton`) are numbered below it, among the
   * others: a scan that may report them reads from the lowest of its accepting states (`acceptingOf`).
   */
  readonly firstAccepting: number;
  /**
   * The longest keyword's length: the state after any text is the state after its last `depth` characters read from
   * the first state, so a pass may start that far back anywhere with no state to carry (`KeywordHits.findBytes`).
   */
  readonly depth: number;
}

/**
 * The accepting states a text's scan reports, and the lowest of them: no state below it is one. Per state, 0 where no
 * hit is reported, 1 where every hit is, and from `FIRST_CONDITION` on the mark of a condition in `conditions` that
 * the characters around a hit must hold for it to be reported (`hit-context.ts`).
 */
export interface Accepting {
  readonly states: Uint8Array;
  readonly first: number;
  readonly conditions: HitConditions;
}

/** `states` with its lowest accepting state found. */
export function acceptingOf(states: Uint8Array, conditions: HitConditions = NO_CONDITIONS): Accepting {
  let first = 0;
  while (first < states.length && states[first] === 0) first++;
  return { states, first, conditions };
}

const ALPHABET = 128;

/** UTF-16 code unit → folded ASCII (upper case to lower case); everything non-ASCII becomes NUL, which no keyword has. */
export const FOLD = (() => {
  const table = new Uint8Array(65536);
  for (let code = 1; code < ALPHABET; code++) table[code] = code >= 65 && code <= 90 ? code + 32 : code;
  return table;
})();

/** Keywords outside printable ASCII cannot go through the automaton; rules with them run over the whole text. */
export function isAutomatonKeyword(keyword: string): boolean {
  return keyword.length > 0 && /^[\x20-\x7e]+$/.test(keyword);
}

/**
 * `pathBound` tells the items that scan only the few paths they name (a rule's `onlyPaths`): a state where only their
 * keywords end is numbered among those where none ends, so that on every other path (where those items are exempt)
 * the per-character loop passes it by its number, as it does a state where no keyword ends. On the npm corpus the
 * `.pgpass` rule's `:` was such a state once in 90 bytes, each a second table read and a branch the processor
 * could not predict.
 */
export function buildKeywordAutomaton<T>(
  entries: ReadonlyArray<{ keywords: readonly string[]; item: T }>,
  nameWords: readonly string[] = [],
  pathBound: (item: T) => boolean = () => false,
): KeywordAutomaton<T> {
  const itemsByKeyword = new Map<string, T[]>();
  const names = new Set(nameWords.filter(isAutomatonKeyword).map((word) => word.toLowerCase()));
  for (const word of names) itemsByKeyword.set(word, []);
  for (const { keywords, item } of entries) {
    for (const keyword of keywords) {
      if (!isAutomatonKeyword(keyword)) continue;
      const key = keyword.toLowerCase();
      const list = itemsByKeyword.get(key) ?? [];
      if (!list.includes(item)) list.push(item);
      itemsByKeyword.set(key, list);
    }
  }
  return automatonOf(itemsByKeyword, names, pathBound);
}

/**
 * The automaton of keywords already lower-cased and grouped (in the order their items are to be reported), built with
 * as little work as the interpreter can do: it is built at every start of every process and worker thread, where each
 * step runs before V8 has optimized anything. The trie comes from the sorted keywords (each shares its prefix with the
 * one before it), so no table is needed to find existing edges; its states are numbered breadth-first (those where
 * keywords end apart, last), which keeps the shallow states' rows (where the scan spends its time) side by side in the
 * table; each state's row is its failure state's row, copied, with its own edges written over it.
 */
function automatonOf<T>(
  itemsByKeyword: ReadonlyMap<string, T[]>,
  names: ReadonlySet<string>,
  pathBound: (item: T) => boolean,
): KeywordAutomaton<T> {
  const sorted = [...itemsByKeyword.keys()].sort();
  let bound = 1;
  for (const keyword of sorted) bound += keyword.length;
  const { classes, shift } = columnsOf(sorted);
  const width = 1 << shift;
  // The trie, in the order states are made: each state's incoming character, first child and next sibling.
  const code = new Uint8Array(bound);
  const firstChild = new Int32Array(bound).fill(-1);
  const nextSibling = new Int32Array(bound).fill(-1);
  const lastChild = new Int32Array(bound).fill(-1);
  const own: Array<KeywordOutput<T> | undefined> = [undefined];
  const path = [0];
  let made = 1;
  let previous = '';
  for (const keyword of sorted) {
    let common = 0;
    const limit = Math.min(previous.length, keyword.length);
    while (common < limit && previous.charCodeAt(common) === keyword.charCodeAt(common)) common++;
    // Sorted and distinct: the character after the shared prefix is new among its state's children, and the largest.
    let state = path[common]!;
    for (let i = common; i < keyword.length; i++) {
      const next = made++;
      code[next] = classes[keyword.charCodeAt(i)]!;
      if (lastChild[state] === -1) firstChild[state] = next;
      else nextSibling[lastChild[state]!] = next;
      lastChild[state] = next;
      own.push(undefined);
      path[i + 1] = next;
      state = next;
    }
    own[state] = { length: keyword.length, items: itemsByKeyword.get(keyword)!, nameWord: names.has(keyword) };
    previous = keyword;
  }
  // Breadth-first order: `order[n]` is the state made n-th in that order.
  const order = new Int32Array(made);
  let tail = 1;
  for (let head = 0; head < made; head++) {
    for (let child = firstChild[order[head]!]!; child !== -1; child = nextSibling[child]!) order[tail++] = child;
  }
  const delta = made <= 0x10000 ? new Uint16Array(made * width) : new Int32Array(made * width);
  // Row by row in that order (a state's failure state is shallower, so its row is complete before it is copied). Each
  // state is numbered as the first edge to it is written, when whether keywords end there is known: those where none
  // ends (or only path-bound items' keywords do) from 1 up (the root is 0), the others from the top down, so they come
  // last. By state as made: its number, and its failure state's number.
  const numbers = new Int32Array(made);
  const failure = new Int32Array(made);
  const outputs: Array<ReadonlyArray<KeywordOutput<T>> | undefined> = new Array(made).fill(undefined);
  const accepting = new Uint8Array(made);
  let plain = 1;
  let ending = made;
  for (let at = 0; at < made; at++) {
    const state = order[at]!;
    const row = numbers[state]! * width;
    if (at !== 0) delta.copyWithin(row, failure[state]! * width, failure[state]! * width + width);
    for (let child = firstChild[state]!; child !== -1; child = nextSibling[child]!) {
      const fails = at === 0 ? 0 : delta[row + code[child]!]!;
      // A state's keywords: its own, then those of its failure state (the longest of them first).
      const inherited = outputs[fails];
      const mine = own[child];
      const list = mine === undefined ? inherited : inherited === undefined ? [mine] : [mine, ...inherited];
      const next = list === undefined || onlyPathBound(list, pathBound) ? plain++ : --ending;
      numbers[child] = next;
      failure[child] = fails;
      delta[row + code[child]!] = next;
      if (list === undefined) continue;
      outputs[next] = list;
      accepting[next] = 1;
    }
  }
  let depth = 0;
  for (const keyword of sorted) depth = Math.max(depth, keyword.length);
  return { delta, classes, shift, outputs, accepting, firstAccepting: ending, depth };
}

/**
 * The columns of an automaton of `keywords` (lower case, printable ASCII): 1 up for each character they hold, in
 * code order, and 0 for every other code unit; the row width is the least power of two above their count.
 */
function columnsOf(keywords: readonly string[]): { classes: Uint8Array; shift: number } {
  const held = new Uint8Array(ALPHABET);
  for (const keyword of keywords) for (let i = 0; i < keyword.length; i++) held[keyword.charCodeAt(i)] = 1;
  const column = new Uint8Array(ALPHABET);
  let count = 1;
  for (let code = 0; code < ALPHABET; code++) if (held[code] === 1) column[code] = count++;
  let shift = 0;
  while (1 << shift < count) shift++;
  const classes = new Uint8Array(65536);
  for (let code = 1; code < ALPHABET; code++) classes[code] = column[FOLD[code]!]!;
  return { classes, shift };
}

/** Whether only path-bound items use the keywords of `list` (a name word is everyone's). */
function onlyPathBound<T>(list: ReadonlyArray<KeywordOutput<T>>, pathBound: (item: T) => boolean): boolean {
  return list.every((keyword) => !keyword.nameWord && keyword.items.length > 0 && keyword.items.every(pathBound));
}
