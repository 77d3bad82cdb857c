import type { CompiledRule } from './compiled-rule.js';
import { ALNUM } from './name-gate.js';

/**
 * Whether any rule with `nameWords` (a provider-named rule) could open a window in the name holding a name word's hit,
 * read from a byte scan's bytes (`byte-scan.ts`). Those rules' keywords are found by walking the name before the name
 * word (`name-keywords.ts`), and each hit found there is asked its gate at once; but every such keyword lies in the
 * same run of name characters as the name word, so the run ends, and the separator stands, where they do after the
 * name word. Where no rule's name-gate shape allows that separator (the built-in 533 share one gate: `=` or `:`),
 * the walk would open nothing and is not made: `token` and `key` in code stand mostly before `)`, `,` or `(`.
 *
 * Any rule without a shape, or a run longer than a shape allows from the name word on, and the walk is made as
 * before (a run past that length fails every gate from further back as well, but is left to them).
 */
export type NamedMayOpen = (bytes: Uint8Array, after: number) => boolean;

/** Per byte, 1 for a name character (`[A-Za-z0-9_.-]`). */
const NAME_BYTE = new Uint8Array(256);
for (const char of `${ALNUM}_.-`) NAME_BYTE[char.charCodeAt(0)] = 1;

const always: NamedMayOpen = () => true;

/** The test for `named`, the scanner's rules with `nameWords`. */
export function namedMayOpen(named: readonly CompiledRule[]): NamedMayOpen {
  if (named.length === 0 || named.some((item) => item.gateShape === undefined)) return always;
  // A byte outside ASCII is no character a shape allows (its tables are of ASCII codes).
  const atEnd = new Uint8Array(256);
  const atSeparator = new Uint8Array(256);
  let run = 0;
  for (const { gateShape } of named) {
    const shape = gateShape!;
    run = Math.max(run, shape.run);
    const table = shape.at === 'end' ? atEnd : atSeparator;
    for (let code = 0; code < 128; code++) if (shape.allowed[code] === 1) table[code] = 1;
  }
  return (bytes, after) => {
    const length = bytes.length;
    const limit = Math.min(length, after + run + 1);
    let end = after;
    while (end < limit && NAME_BYTE[bytes[end]!] === 1) end++;
    if (end - after > run) return true;
    if (end < length && atEnd[bytes[end]!] === 1) return true;
    // `separatorAt`: past one backslash, one quote and any blanks.
    let at = end;
    if (at < length && bytes[at] === 92) at++;
    if (at < length && (bytes[at] === 34 || bytes[at] === 39)) at++;
    while (at < length && (bytes[at] === 32 || bytes[at] === 9)) at++;
    return at < length && atSeparator[bytes[at]!] === 1;
  };
}
