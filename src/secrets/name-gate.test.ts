import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  GateCheck,
  nameGateShape,
  nameRunEnd,
  quotedCallArgument,
  quotedValueAt,
  separatorAt,
  shapeAllows,
} from './name-gate.js';
import type { SecretRule } from './rule.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';

/** Every distinct gate of the built-in rules that has a name-gate shape. */
const shapedGates = [...new Set(builtinRules.map((rule) => rule.gate))].flatMap((gate) => {
  const shape = nameGateShape(gate);
  return gate && shape ? [{ source: gate.source, gate: new RegExp(gate.source, `${gate.flags}y`), shape }] : [];
});

/** What may follow a keyword: the rest of a name, then a separator's characters, then a value. */
const NAME = ['a', 's', 'Z', '7', '_', '.', '-'];
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
const randomFollowers = fc
  .tuple(
    fc.array(fc.constantFrom(...NAME), { maxLength: 4 }),
    fc.array(fc.constantFrom(...PUNCTUATION), { maxLength: 4 }),
    fc.array(fc.constantFrom(...VALUE), { maxLength: 8 }),
  )
  .map((parts) => parts.flat().join(''));
/**
 * Followers built the way assignments and prose are: blanks, an optional quote or separator, blanks, an optional quote,
 * then a run of value characters near the lengths the gates count (16-40). Random characters alone seldom make a
 * quote after blanks followed by twenty value characters: a table for the spaced prose key that left out the quote
 * (`key  'abc…`, which its gate takes) passed `randomFollowers` in most runs, and fails in every run with these.
 */
const BLANKS = fc.array(fc.constantFrom(' ', '\t'), { maxLength: 5 }).map((blanks) => blanks.join(''));
/** Half the time nothing, else one of `items`. */
const maybe = (...items: string[]) => fc.option(fc.constantFrom(...items), { nil: '', freq: 2 });
const shapedFollowers = fc
  .tuple(
    maybe(...NAME),
    maybe('s', '\\'),
    maybe('"', "'", '`'),
    BLANKS,
    maybe('=', ':', '=>', '-', '?=', ']', ','),
    BLANKS,
    maybe('"', "'", '`'),
    maybe('$', '{', '-', '<', '('),
    // fast-check's default size keeps arrays near ten items whatever `maxLength` says; gates count 16-40.
    fc.array(fc.constantFrom('a', 'Z', '7', '_', '-', '.', '/', '+', '='), { maxLength: 40, size: 'max' }),
    maybe('"', "'", ' ', '\n', ';', ',', '{'),
  )
  .map((parts) => parts.flat().join(''));
const followers = fc.oneof(randomFollowers, shapedFollowers);

/** Both scanners report the same findings (rule, start, secret) on every text `texts` draws. */
function expectSameFindings(
  one: SecretScanner,
  other: SecretScanner,
  texts: fc.Arbitrary<{ text: string; path: string }>,
  numRuns: number,
): void {
  const found = (scanner: SecretScanner, text: string, path: string) =>
    scanner.scanText(text, { path }).map((item) => `${item.rule.id} ${item.start} ${item.secret}`);
  fc.assert(
    fc.property(texts, ({ text, path }) => {
      expect(found(one, text, path)).toEqual(found(other, text, path));
    }),
    { numRuns },
  );
}

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
    const text = '  "api_key_1": "Zq8pLr4TWm3xYv7K",\n';
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

  test('a quoted value after = or : is read as the patterns take it: to its quote, on its line, 200 at most', () => {
    const at = (text: string) => quotedValueAt(text, separatorAt(text, nameRunEnd(text, 0)));
    expect(at('_1": "value 1",')).toBe('value 1');
    expect(at("_1 = 'abc' # x")).toBe('abc');
    expect(at('_1 => "a'.concat('b"'))).toBe('ab');
    expect(at('_1: ""')).toBe('');
    expect(at('_1: "unterminated\n"')).toBe('');
    expect(at(`_1: "${'x'.repeat(200)}"`)).toBe('x'.repeat(200));
    expect(at(`_1: "${'x'.repeat(201)}"`)).toBe('');
    expect(at('_1: value')).toBeUndefined();
    expect(at('_1: str = "a b"')).toBeUndefined();
    expect(at('_1 ?= "a b"')).toBeUndefined();
    expect(at('_1", "a b"')).toBeUndefined();
    expect(at('_1: \\"a b\\"')).toBeUndefined();
  });

  test('a JSON key whose quoted value no generic rule takes (prose, too short) opens no assignment window', () => {
    const check = new GateCheck('"api_key_1": "value 1", "token": "abc", "secret": "Zq8pLr4TWm3xYv7K"\n');
    const rule = builtinRules.find((item) => item.id === 'generic-secret')!;
    const gate = new RegExp(rule.gate!.source, `${rule.gate!.flags}y`);
    const passes = (keyword: string, from = 0) => {
      const text = '"api_key_1": "value 1", "token": "abc", "secret": "Zq8pLr4TWm3xYv7K"\n';
      return check.passes(gate, nameGateShape(rule.gate), text.indexOf(keyword, from) + keyword.length);
    };
    expect([passes('api_key'), passes('token'), passes('secret')]).toEqual([false, false, true]);
  });

  // The quoted-value check stops hits by what the rules' validator would say of their match: with and without it (the
  // same gate regex, no shape), the generic assignment rules find the same secrets.
  const assignmentRules = builtinRules.filter((rule) => rule.gate !== undefined && nameGateShape(rule.gate)?.quoted);
  const unshaped = (rule: SecretRule): SecretRule => ({
    ...rule,
    gate: new RegExp(rule.gate!.source, rule.gate!.flags),
  });
  const withCheck = new SecretScanner(assignmentRules);
  const withoutCheck = new SecretScanner(assignmentRules.map(unshaped));
  const assignments = fc
    .tuple(
      fc.constantFrom('x ', "define('", 'getenv( "', '("', '"a": "', 'f(x, "'),
      fc.constantFrom('password', 'api_token', 'secret', 'db_pass', 'client_key', 'proxyAuth'),
      fc.array(fc.constantFrom(...NAME), { maxLength: 3 }),
      fc.array(fc.constantFrom('"', "'", '\\', ' ', ':', '=', '>', '?', '!', ','), { maxLength: 4 }),
      fc.array(
        fc.constantFrom('"', "'", ' ', '\n', 'value', 'Zq8pLr4TWm3xYv7K', 'Kestrel-92!', '{0}', 'none', 'abc', '-'),
        { maxLength: 5 },
      ),
      fc.constantFrom('config.json', 'app.env', 'src/app.ts', 'values.yaml'),
    )
    .map(([before, keyword, rest, separator, value, path]) => ({
      text: `${before}${keyword}${rest.join('')}${separator.join('')}${value.join('')}\n`,
      path,
    }));

  test('the assignment rules find the same secrets with the quoted-value check as without it', () => {
    expect(assignmentRules.map((rule) => rule.id).sort()).toEqual([
      'generic-password',
      'generic-secret',
      'generic-secret-key-name',
    ]);
    expectSameFindings(withCheck, withoutCheck, assignments, 5000);
  });

  test("after a `,` only a call's first argument, quoted, passes: not a keyword inside a JSON value", () => {
    const call = (text: string, keyword: string) => {
      const after = text.indexOf(keyword) + keyword.length;
      return quotedCallArgument(text, after, nameRunEnd(text, after));
    };
    expect(call("define('DB_PASSWORD', 'x')", 'PASSWORD')).toBe(true);
    expect(call('getenv(  "api_token", "x")', 'token')).toBe(true);
    expect(call('{"token_2": "cfg_auth_token_2", "x": 1}', 'auth_token')).toBe(false);
    expect(call('["password", "seen"]', 'password')).toBe(false);
    expect(call('f(x, "password", "y")', 'password')).toBe(false);
    expect(call(`f("${'a'.repeat(130)}password", "y")`, 'password')).toBe(false);
    expect(call(`f("${'a'.repeat(122)}password", "y")`, 'password')).toBe(true);
    expect(call('password", "y"', 'password')).toBe(false);

    const text = '{"token_2": "cfg_auth_token_2", "secret_3": "cfg_access_key_3", "end": 1}';
    const rule = builtinRules.find((item) => item.id === 'generic-secret')!;
    const gate = new RegExp(rule.gate!.source, `${rule.gate!.flags}y`);
    const check = new GateCheck(text);
    const hits = [...text.matchAll(/token|secret|key/g)].map((hit) => hit.index + hit[0].length);
    expect(hits.filter((after) => check.passes(gate, nameGateShape(rule.gate), after))).toEqual([]);
  });
});

describe('the assignment gates', () => {
  // Every part of the assignment rules' gates (the shape, the quoted-value check, the regex's reading of the separator
  // and of where a value may start) stops only hits where the rule's pattern and validator report nothing: with the
  // gates and with none at all (a window at every keyword hit), they find the same secrets.
  const ids = ['generic-password', 'generic-secret'];
  const rules = builtinRules.filter((rule) => ids.includes(rule.id));
  const gated = new SecretScanner(rules);
  const ungated = new SecretScanner(rules.map((rule) => ({ ...rule, gate: undefined })));
  const SEPARATOR = ['"', "'", '\\', ' ', '\t', ':', '=', '>', '?', '!', '[', ']', '0', ',', '&', 'str', 'String'];
  const VALUE = [
    ...[' ', '\t', '"', "'", '`', '\\', ':', '=', '>', '{', '}', '[', ']', '(', ')', ';', ',', '<', '&quot;', '\r'],
    ...['true', 'null', '{}', 'NextToken', 'Marker', 'string', 'Token;', 'value', 'x7'],
    ...['Zq8pLr4TWm3xYv7K', 'Kestrel-92!', 'A1b2C3d4E5F6G7H8J9k0', 'abcd12f2-46da-4fdb-b8d5-fbd4c466928f'],
  ];
  const texts = fc
    .tuple(
      fc.constantFrom('', 'x ', '  "', "define('", 'getenv( "', 'f(x, "', '--', '#define '),
      fc.constantFrom('password', 'api_token', 'secret', 'db_pass', 'NextToken', 'client_secret', 'passphrase'),
      // Names as long as the pattern takes: 40 characters after the name's core, and a few past that.
      fc.oneof(
        fc.array(fc.constantFrom(...NAME), { maxLength: 3 }),
        fc.integer({ min: 34, max: 44 }).map((length) => [`_${'x'.repeat(length)}`]),
      ),
      fc.array(fc.constantFrom(...SEPARATOR), { maxLength: 5 }),
      fc.array(fc.constantFrom(...VALUE), { maxLength: 6 }),
      fc.constantFrom('', '\n', '\nsecret = Zq8pLr4TWm3xYv7K\n', '\n  "token": "A1b2C3d4E5F6G7H8J9k0"'),
      fc.constantFrom('config.json', 'app.env', 'src/app.ts', 'values.yaml', 'Makefile'),
    )
    .map(([before, keyword, rest, separator, value, next, path]) => ({
      text: `${before}${keyword}${rest.join('')}${separator.join('')}${value.join('')}${next}`,
      path,
    }));

  test('the password and secret assignment rules find the same secrets with their gates as with none', () => {
    expectSameFindings(gated, ungated, texts, 20000);
  });

  test('they open no window at a value no rule of theirs takes', () => {
    const rule = builtinRules.find((item) => item.id === 'generic-secret')!;
    const gate = new RegExp(rule.gate!.source, `${rule.gate!.flags}y`);
    const opens = (text: string) => {
      const after = text.indexOf('Token') + 'Token'.length;
      return new GateCheck(text).passes(gate, nameGateShape(rule.gate), after);
    };
    expect(
      [
        '"NextToken": {},',
        '"NextToken": [',
        'NextToken?: NextToken;',
        'nextToken:\n',
        '"input_token": "NextToken",',
        '"idToken": "Marker"',
      ].map(opens),
    ).toEqual([false, false, false, false, false, false]);
    expect(
      [
        '"NextToken": "A1b2C3d4E5F6G7H8J9k0",',
        'NextToken ?= A1b2C3d4E5F6G7H8J9k0',
        'nextToken: string = "A1b2C3d4E5F6G7H8J9k0"',
        'nextToken => A1b2',
        'nextToken[0] = x',
      ].map(opens),
    ).toEqual([true, true, true, true, true]);
  });
});

describe('the command-line and macro gates', () => {
  // Their checks read back from the hit for what the patterns need before the name (`--`, `ENV`, `#define`, `set`):
  // with the gates and with none, the rules find the same secrets.
  const ids = [
    'generic-password-cli-flag',
    'generic-secret-cli-flag',
    'generic-password-define',
    'generic-secret-define',
  ];
  const rules = builtinRules.filter((rule) => ids.includes(rule.id));
  const gated = new SecretScanner(rules);
  const ungated = new SecretScanner(rules.map((rule) => ({ ...rule, gate: undefined })));
  const BEFORE = [' ', '\t', '\n', '\r', '-', '--', 'ENV', 'arg', 'Env', 'x', '.', '"', '#', '%', 'define', 'GLOBAL'];
  const texts = fc
    .tuple(
      fc.array(fc.constantFrom(...BEFORE, 'set', 'The', 'sets', '#define', '%global', 'SET'), { maxLength: 5 }),
      fc.constantFrom('password', 'api_token', 'secret', 'db_pass', 'NextToken', 'api key', 'bearer'),
      fc.array(fc.constantFrom(...NAME), { maxLength: 3 }),
      fc.array(fc.constantFrom(' ', '\t', '=', '"', "'", '\\"'), { maxLength: 3 }),
      fc.constantFrom('Zq8pLr4TWm3xYv7K', 'Kestrel-92!', 'A1b2C3d4E5F6G7H8J9k0', 'to use to retrieve', 'value.'),
      fc.constantFrom('', '"', "'", '\\"', ' x\n', '\n'),
      fc.constantFrom('scripts/deploy.sh', 'Dockerfile', 'src/config.h', 'app.spec', 'README.md'),
    )
    .map(([before, keyword, rest, separator, value, end, path]) => ({
      text: `${before.join('')}${keyword}${rest.join('')}${separator.join('')}${value}${end}`,
      path,
    }));

  test('the command-line and macro rules find the same secrets with their gates as with none', () => {
    expectSameFindings(gated, ungated, texts, 20000);
  });
});
