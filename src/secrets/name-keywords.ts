import { buildKeywordAutomaton, type KeywordAutomaton } from './prefilter.js';

/**
 * The keywords of rules with `nameWords` (provider names in `toggl_api_key`), found in the name before a name word's
 * hit rather than by the prefilter over the whole text: the prefilter's automaton walks every character of the text
 * through states that its keywords' prefixes create, and 400 provider names (`atera`, `typeform`, `render`) create
 * states that ordinary words (`create`, `type`, `rendering`) walk through, which slowed the whole scan by a fifth.
 * Searched here, they cost a short walk over one name at each hit of a name word (`key`, `token`).
 */

/**
 * How far before a name word's hit its rule's keyword may start. A provider-named assignment's alias starts at most
 * 31 + 30 characters plus its own length before the secret word (see `providerNamedAssignment`).
 */
export const NAME_REACH = 160;

/** The characters of a name (`[A-Za-z0-9_.-]`), and the separators a keyword may start a word after. */
const NAME_CHAR = new Uint8Array(65536);
const SEPARATOR = new Uint8Array(65536);
for (const char of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-')
  NAME_CHAR[char.charCodeAt(0)] = 1;
for (const char of '_.-') SEPARATOR[char.charCodeAt(0)] = 1;

/**
 * Where the search of one text has got to: a name's keywords are searched once however many name words it has (a
 * 2 MB line of `passpass…` is one name with half a million of them).
 */
export interface NameWalk {
  readonly text: string;
  /** The start of the name being walked, the offset walked up to, and the automaton's state there. */
  runStart: number;
  at: number;
  state: number;
}

/**
 * What a walk calls per keyword found, with the caller's `arg`: one function for the isolate's life, where a closure
 * made per file (over that file's state) was a new call target each file, which V8 deoptimized the walk for.
 */
export type NameVisit<T, A> = (item: T, at: number, after: number, arg: A) => void;

export class NameKeywords<T> {
  private readonly entries: ReadonlyArray<{ keywords: readonly string[]; item: T }>;
  /**
   * Built at the first name word's hit, not with the scanner: the provider names make the larger of the scanner's two
   * automata (a tenth of a scan's start-up CPU), and a scan whose text holds no name word (a small file, most worker
   * threads' first files) never reads it.
   */
  private automaton: KeywordAutomaton<T> | undefined;

  constructor(entries: ReadonlyArray<{ keywords: readonly string[]; item: T }>) {
    this.entries = entries;
  }

  private tables(): KeywordAutomaton<T> {
    this.automaton ??= buildKeywordAutomaton(this.entries);
    return this.automaton;
  }

  startWalk(text: string): NameWalk {
    return { text, runStart: 0, at: -1, state: 0 };
  }

  /**
   * Calls `visit` (given `arg`) with each keyword occurrence in the name that ends at `end` (where a name word starts) not visited
   * before, in the order they end: each at the name's start or after a separator, within `NAME_REACH` characters
   * before `end` or in the part of the same name walked for an earlier name word.
   */
  forEachBefore<A>(walk: NameWalk, end: number, visit: NameVisit<T, A>, arg: A): void {
    const { text } = walk;
    const limit = Math.max(0, end - NAME_REACH);
    let from = end;
    while (from > limit && from !== walk.at && NAME_CHAR[text.charCodeAt(from - 1)] === 1) from--;
    let state = 0;
    if (from === walk.at) state = walk.state;
    else walk.runStart = from;
    const runStart = walk.runStart;
    const { delta, classes, shift, outputs, firstAccepting } = this.tables();
    for (let i = from; i < end; i++) {
      state = delta[(state << shift) | classes[text.charCodeAt(i)]!]!;
      if (state < firstAccepting) continue;
      for (const keyword of outputs[state]!) {
        const at = i - keyword.length + 1;
        if (at > runStart && SEPARATOR[text.charCodeAt(at - 1)] !== 1) continue;
        for (const item of keyword.items) visit(item, at, i + 1, arg);
      }
    }
    walk.at = end;
    walk.state = state;
  }

  /** `forEachBefore` over bytes read one per character (see `KeywordHits.findBytes`); `walk.text` is unused. */
  forEachBeforeBytes<A>(walk: NameWalk, bytes: Uint8Array, end: number, visit: NameVisit<T, A>, arg: A): void {
    const limit = Math.max(0, end - NAME_REACH);
    let from = end;
    while (from > limit && from !== walk.at && NAME_CHAR[bytes[from - 1]!] === 1) from--;
    let state = 0;
    if (from === walk.at) state = walk.state;
    else walk.runStart = from;
    const runStart = walk.runStart;
    const { delta, classes, shift, outputs, firstAccepting } = this.tables();
    for (let i = from; i < end; i++) {
      state = delta[(state << shift) | classes[bytes[i]!]!]!;
      if (state < firstAccepting) continue;
      for (const keyword of outputs[state]!) {
        const at = i - keyword.length + 1;
        if (at > runStart && SEPARATOR[bytes[at - 1]!] !== 1) continue;
        for (const item of keyword.items) visit(item, at, i + 1, arg);
      }
    }
    walk.at = end;
    walk.state = state;
  }
}
