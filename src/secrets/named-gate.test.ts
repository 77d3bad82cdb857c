import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CompiledRule, compileRule, opensAt } from './compiled-rule.js';
import { GateCheck } from './name-gate.js';
import { namedMayOpen } from './named-gate.js';
import { builtinRules } from './rules/index.js';

const compiled = builtinRules.map(compileRule);
const named = compiled.filter((item) => item.outline.nameWords !== undefined);
/** One rule per distinct gate: the rules of one gate open alike. */
const gates = [...new Map(named.map((item) => [item.gate, item])).values()] as CompiledRule[];
const mayOpen = namedMayOpen(named);

/** A text read as a byte scan reads it: ASCII as itself, any other unit as a byte of 0x80 or more (`unit-bytes.ts`). */
function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => (char.charCodeAt(0) < 128 ? char.charCodeAt(0) : 0x82));
}

const NAME = fc.constantFrom('toggl', 'github', '_', '.', '-', 'api', 'X', '7', 'this.');
const AFTER = fc.constantFrom(...'=:"\'\\ \t\n(),.;_-aé'.split(''), ' = ', '": ', '\\":', '    =', 'k'.repeat(85));

describe('a name word whose name no provider-named gate allows', () => {
  test('the built-in provider-named rules have shapes, so the test can say no', () => {
    expect(named.length).toBeGreaterThan(100);
    expect(mayOpen(bytesOf('toggl_token)'), 'toggl_token'.length)).toBe(false);
    expect(mayOpen(bytesOf('toggl_token = x'), 'toggl_token'.length)).toBe(true);
  });

  test('is a name where no keyword before the name word opens a window', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        fc.array(NAME, { maxLength: 5 }),
        fc.constantFrom('key', 'token', 'secret', 'pass', 'auth'),
        fc.array(AFTER, { maxLength: 4 }),
        (name, word, after) => {
          const text = `${name.join('')}${word}${after.join('')}`;
          const end = name.join('').length + word.length;
          if (mayOpen(bytesOf(text), end)) return;
          refused++;
          // Any keyword ending in the name before the name word: each position of it.
          for (let at = 0; at <= end - word.length; at++)
            for (const item of gates)
              expect(opensAt(item, text, at, new GateCheck(text)), `${text} at ${at}`).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
    expect(refused).toBeGreaterThan(500);
  });
});
