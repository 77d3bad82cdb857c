import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { NAMED_BY_NAME_KEY_REACH, namedByNameKey } from './env-entry.js';
import { type CheckReach, checkReachOf, type HitCheck } from './gate-checks.js';
import { XML_ATTRIBUTE_REACH, xmlAttributeCheck } from './generic-gates.js';
import { inOrdinaryJsonValue, JSON_VALUE_LOOK_BACK } from './json-value.js';
import {
  CALL_ARGUMENT_LOOK_BACK,
  nameRunEnd,
  QUOTED_VALUE_REACH,
  quotedCallArgument,
  quotedValueAt,
  valueAt,
} from './name-gate.js';
import { KEY_WITHIN_NAME_REACH, keyWithinName } from './rules/azure.js';
import { LEGACY_VALUE_AHEAD_REACH, legacyValueAhead } from './rules/hashicorp.js';
import { IN_NAME_FIELD_REACH, inNameField } from './split-fields.js';

// The declared reaches of the checks a byte scan asks on a probe, a bounded slice of a long line (`byte-scan.ts`): on
// random text each check decides alike on the whole text and on the slice its reach gives around the hit, and on a
// worst case written out the slice one unit shorter on the bounded side decides otherwise.

const CHECKS: ReadonlyArray<{ name: string; check: HitCheck; reach: CheckReach }> = [
  { name: 'keyWithinName', check: keyWithinName, reach: KEY_WITHIN_NAME_REACH },
  { name: 'legacyValueAhead', check: legacyValueAhead, reach: LEGACY_VALUE_AHEAD_REACH },
  { name: 'xmlAttributeCheck', check: xmlAttributeCheck, reach: XML_ATTRIBUTE_REACH },
  { name: 'namedByNameKey', check: namedByNameKey, reach: NAMED_BY_NAME_KEY_REACH },
  { name: 'inNameField', check: inNameField, reach: IN_NAME_FIELD_REACH },
  { name: 'inOrdinaryJsonValue', check: inOrdinaryJsonValue, reach: { back: JSON_VALUE_LOOK_BACK, ahead: 0 } },
  // The look back of the call check, from the hit's end; what it reads ahead (the name's run) is the parse's.
  { name: 'quotedCallArgument', check: callArgument, reach: { back: CALL_ARGUMENT_LOOK_BACK, ahead: Infinity } },
];

function callArgument(text: string, after: number): boolean {
  return quotedCallArgument(text, after, nameRunEnd(text, after));
}

/** What the checks read: name characters, blanks, quotes, separators, markup, their words, line ends, non-ASCII. */
const PIECES = [
  'a',
  'Z',
  '0',
  '_',
  '-',
  '.',
  ' ',
  '\t',
  '    ',
  '"',
  "'",
  '`',
  ':',
  '=',
  '>',
  '<',
  ',',
  '{',
  '(',
  '\n',
  '\r',
  'key',
  'KEY',
  'name',
  '<name>',
  '<key>',
  '"name"',
  '"key"',
  '"ParameterKey"',
  'variable',
  's.',
  'b.',
  'value=',
  'é',
  '\u{1F600}',
  'abcdefghijklmnopqrstuvwxyz0123456789',
  ' '.repeat(130),
  'x'.repeat(125),
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((parts) => parts.join(''));

/** The check on the slice `[after - back, after + ahead)` of `text` (clipped to it), at the hit's place there. */
function onSlice(check: HitCheck, value: string, after: number, back: number, ahead: number): boolean {
  const start = Math.max(0, after - back);
  return check(value.slice(start, Math.min(value.length, after + ahead)), after - start);
}

describe('the declared reaches of checks asked on a probe', () => {
  test('every check decides alike on the whole text and on its reach around the hit', () => {
    for (const { name, check, reach } of CHECKS) {
      expect(checkReachOf(check) ?? reach, name).toEqual(reach);
      fc.assert(
        fc.property(text, fc.nat(), (value, place) => {
          const after = value.length === 0 ? 0 : place % (value.length + 1);
          expect(
            onSlice(check, value, after, reach.back, reach.ahead),
            `${name} ${JSON.stringify(value)} ${after}`,
          ).toBe(check(value, after));
        }),
        { numRuns: 3000, seed: 2812 },
      );
    }
  });

  test("the quoted value's reach past the value's start", () => {
    fc.assert(
      fc.property(text, fc.nat(), (value, place) => {
        const separator = value.length === 0 ? 0 : place % (value.length + 1);
        const end = valueAt(value, separator) + QUOTED_VALUE_REACH;
        expect(quotedValueAt(value.slice(0, end), separator)).toBe(quotedValueAt(value, separator));
      }),
      { numRuns: 3000, seed: 2813 },
    );
    const worst = `= "${'v'.repeat(200)}"`;
    const end = valueAt(worst, 0) + QUOTED_VALUE_REACH;
    expect(quotedValueAt(worst.slice(0, end), 0)).toBe('v'.repeat(200));
    expect(quotedValueAt(worst.slice(0, end - 1), 0)).toBe('');
  });

  test('a reach one unit short decides otherwise on a worst case', () => {
    const worst: ReadonlyArray<{ check: HitCheck; reach: CheckReach; value: string; after: number }> = [
      // `key` starting 30 units on.
      { check: keyWithinName, reach: KEY_WITHIN_NAME_REACH, value: `${'a'.repeat(30)}key`, after: 0 },
      // 20 name characters, 12 blanks, `s` and its dot.
      {
        check: legacyValueAhead,
        reach: LEGACY_VALUE_AHEAD_REACH,
        value: `${'a'.repeat(20)}${' '.repeat(12)}s.`,
        after: 0,
      },
      // A quote 40 units on, then 80 units before the `>`; read back over a name of 119 units to `="`.
      ...[0].map(() => {
        const before = `="${'a'.repeat(119)}`;
        return {
          check: xmlAttributeCheck,
          reach: XML_ATTRIBUTE_REACH,
          value: `${before}${'a'.repeat(40)}"${'a'.repeat(80)}>`,
          after: before.length,
        };
      }),
      ...[0].map(() => {
        const before = `name'${' '.repeat(128)}:${' '.repeat(128)}'${'a'.repeat(128)}`;
        return { check: namedByNameKey, reach: NAMED_BY_NAME_KEY_REACH, value: before, after: before.length };
      }),
      ...[0].map(() => {
        const before = `"ParameterKey":"${'a'.repeat(159)}`;
        return { check: inNameField, reach: IN_NAME_FIELD_REACH, value: before, after: before.length };
      }),
      ...[0].map(() => {
        const before = `(${' '.repeat(4)}'${'a'.repeat(131)}`;
        return {
          check: callArgument,
          reach: { back: CALL_ARGUMENT_LOOK_BACK, ahead: Infinity },
          value: `${before}', 'v')`,
          after: before.length,
        };
      }),
      ...[0].map(() => {
        const before = `"name"${' '.repeat(4)}:${' '.repeat(4)}"${'a'.repeat(119)}`;
        return {
          check: inOrdinaryJsonValue,
          reach: { back: JSON_VALUE_LOOK_BACK, ahead: 0 },
          value: `x${before}`,
          after: before.length + 1,
        };
      }),
    ];
    for (const { check, reach, value, after } of worst) {
      const whole = check(value, after);
      expect(onSlice(check, value, after, reach.back, reach.ahead), check.name).toBe(whole);
      if (reach.ahead > 0 && reach.ahead < Infinity)
        expect(onSlice(check, value, after, reach.back, reach.ahead - 1), `${check.name} ahead`).not.toBe(whole);
      if (reach.back > 0)
        expect(onSlice(check, value, after, reach.back - 1, reach.ahead), `${check.name} back`).not.toBe(whole);
    }
  });
});
