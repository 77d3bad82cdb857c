import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GateCheck, nameGateShape, nameRunEnd, separatorAt, shapeAllows } from './name-gate.js';
import { builtinRules } from './rules/index.js';

/** Every distinct gate of the built-in rules that has a name-gate shape. */
const shapedGates = [...new Set(builtinRules.map((rule) => rule.gate))].flatMap((gate) => {
  const shape = nameGateShape(gate);
  return gate && shape ? [{ source: gate.source, gate: new RegExp(gate.source, `${gate.flags}y`), shape }] : [];
});

/** What may follow a keyword: the rest of a name, then a separator's characters, then a value. */
const NAME = ['a', 'Z', '7', '_', '.', '-'];
const PUNCTUATION = [':', '=', '>', '"', "'", '\\', ' ', '\t', '\n', '\r', ']', '[', ',', '?', '!'];
const VALUE = [
  ...NAME,
  ...PUNCTUATION,
  '$',
  '<',
  '/',
  '+',
  'getenv(',
  'process.env.',
  'ENV[',
  'value',
  'A1b2C3d4E5'.repeat(4),
  'x'.repeat(35),
];
const followers = fc
  .tuple(
    fc.array(fc.constantFrom(...NAME), { maxLength: 4 }),
    fc.array(fc.constantFrom(...PUNCTUATION), { maxLength: 4 }),
    fc.array(fc.constantFrom(...VALUE), { maxLength: 8 }),
  )
  .map((parts) => parts.flat().join(''));

describe('name gates', () => {
  test('the built-in rules use shaped gates', () => {
    expect(shapedGates.length).toBeGreaterThanOrEqual(8);
  });

  test.each(shapedGates.map((item) => ({ ...item, name: item.source.slice(0, 50) })))(
    'the shared parse never turns down text that $name matches',
    ({ gate, shape }) => {
      fc.assert(
        fc.property(followers, (following) => {
          const text = `token${following}`;
          const after = 'token'.length;
          gate.lastIndex = after;
          if (!gate.test(text)) return;
          const runEnd = nameRunEnd(text, after);
          expect(shapeAllows(shape, text, after, runEnd, separatorAt(text, runEnd))).toBe(true);
        }),
        { numRuns: 5000 },
      );
    },
  );

  test('a JSON key with a quoted value passes the assignment gate and no command-line, macro or env-entry gate', () => {
    const text = '  "api_key_1": "value 1",\n';
    const after = text.indexOf('api_key') + 'api_key'.length;
    const check = new GateCheck(text);
    const verdicts = Object.fromEntries(
      ['generic-secret', 'generic-secret-cli-flag', 'generic-secret-define', 'generic-secret-k8s-env'].map((id) => {
        const rule = builtinRules.find((item) => item.id === id)!;
        const gate = new RegExp(rule.gate!.source, `${rule.gate!.flags}y`);
        return [id, check.passes(gate, nameGateShape(rule.gate), after)];
      }),
    );
    expect(verdicts).toEqual({
      'generic-secret': true,
      'generic-secret-cli-flag': false,
      'generic-secret-define': false,
      'generic-secret-k8s-env': false,
    });
  });
});
