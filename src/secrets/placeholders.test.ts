import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { tokenChecksum } from './checksum.js';
import { isPlaceholder } from './placeholders.js';
import { randomString } from './sample-tokens.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Random base64 as a key's bytes give it (fast-check's own strings shrink to `AAAA…`, which no key is). */
const base64Text = (min: number, max: number) =>
  fc.tuple(fc.integer({ min, max }), fc.nat()).map(([length, seed]) => randomString(length, BASE64, seed));
/** The casings people type, per word: any other casing of it is what random characters spell. */
const TYPED: Record<string, readonly string[]> = {
  todo: ['todo', 'TODO', 'Todo', 'ToDo', 'toDo'],
  xxxx: ['xxxx', 'XXXX'],
  dummy: ['dummy', 'DUMMY', 'Dummy'],
  fixme: ['fixme', 'FIXME', 'Fixme', 'FixMe', 'fixMe'],
  example: ['example', 'EXAMPLE', 'Example'],
  redacted: ['redacted', 'REDACTED', 'Redacted'],
  notreal: ['notreal', 'NOTREAL', 'Notreal', 'NotReal', 'notReal'],
  changeme: ['changeme', 'CHANGEME', 'Changeme', 'ChangeMe', 'changeMe'],
};
const casing = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
/** A word as chance spells it: a casing nobody types. */
const chanceCased = fc
  .constantFrom(...Object.keys(TYPED))
  .chain((word) => casing(word).filter((cased) => !TYPED[word]!.includes(cased)));
/** A word as a person types it. */
const typed = fc.constantFrom(...Object.values(TYPED).flat());

describe('placeholders in long key material', () => {
  test('a stand-in word that random base64 spells by chance does not hide a key store (it did once in 300)', () => {
    // Two real openssl stores held `tODo` and `toDO` in their base64.
    fc.assert(
      fc.property(base64Text(200, 1400), base64Text(1, 40), chanceCased, (body, tail, cased) => {
        // Letters on both sides: the word is inside the material, not standing apart.
        const value = `MII${body}${cased}${tail.replace(/^[^A-Za-z0-9]/, 'Q')}Q`;
        expect(isPlaceholder(value)).toBe(false);
      }),
    );
  });

  test.each([
    ['a PEM body that says where the key goes', `${'A'.repeat(30)}/YOUR-PRIVATE-KEY/TODO/${'B'.repeat(90)}`],
    [
      'key material cut short',
      `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4...${'x'.repeat(40)}Q`,
    ],
    ['a run of x', 'x'.repeat(400)],
    [
      "AWS's example session token (EXAMPLE mid-token)",
      `AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==`,
    ],
    [
      'a capitalised word mid-material',
      `${randomString(120, BASE64, 'cap')}Redacted${randomString(40, BASE64, 'cap2')}`,
    ],
    ['a stand-in repeated', 'YOURPRIVATEKEYHEREdummy'.repeat(10)],
  ])('%s is still a placeholder', (_name, value) => {
    expect(value.length).toBeGreaterThan(100);
    expect(isPlaceholder(value)).toBe(true);
  });

  test.each([['todo'], ['TODO'], ['ToDo'], ['sk_live_xxxx'], ['abc...'], ['sk_test_dummy']])(
    'short value %s then random characters: the word counts',
    (v) => {
      expect(isPlaceholder(`${v}9f8Kq2LmZ`)).toBe(true);
    },
  );
});

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const alnum = (length: number) => fc.nat().map((seed) => randomString(length, ALNUM, seed));

/** Provider shapes without a checksum: a fixed prefix, then random characters the word is spliced into. */
const SHAPES: readonly [string, number, string][] = [
  ['sk_live_', 24, ALNUM],
  ['xoxb-', 40, ALNUM],
  ['AKIA', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'],
  ['', 40, BASE64],
  ['glpat-', 20, ALNUM],
];

describe('placeholder words that random characters spell by chance in a token', () => {
  test('a checksummed token (ghp_, npm_) whose random part spells a word in any casing is kept', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ghp_', 'gho_', 'ghs_', 'npm_'),
        alnum(30),
        fc.constantFrom('todo', 'xxxx', 'dummy', 'fixme').chain(casing),
        fc.nat({ max: 26 }),
        (prefix, random, word, at) => {
          const body = (random.slice(0, at) + word + random.slice(at)).slice(0, 30);
          expect(isPlaceholder(prefix + body + tokenChecksum(body))).toBe(false);
        },
      ),
    );
  });

  test('a word spelt in a casing nobody types, inside random characters, is chance: the token is kept', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHAPES), fc.nat(), chanceCased, fc.nat({ max: 100 }), (shape, seed, word, at) => {
        const [prefix, length, alphabet] = shape;
        const random = randomString(length, alphabet, seed);
        const cut = 1 + (at % (length - 1));
        // Letters or digits on both sides: inside the random run (base64's `+` and `/` would set it apart).
        const before = random.slice(0, cut).replace(/[^A-Za-z0-9]$/, 'Q');
        const after = random.slice(cut).replace(/^[^A-Za-z0-9]/, 'Q');
        expect(isPlaceholder(`${prefix}${before}${word}${after}`)).toBe(false);
      }),
    );
  });

  test('a typed word at the start or end of a token, or a five-letter one anywhere in it, marks a stand-in', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHAPES), fc.nat(), typed, fc.nat({ max: 100 }), (shape, seed, word, at) => {
        const [prefix, length, alphabet] = shape;
        const random = randomString(length, alphabet, seed);
        // A short word glued to a prefix of letters (`AKIAtodo…`) is inside the run, not at its start.
        if (word.length >= 5 || !/[A-Za-z0-9]$/.test(prefix))
          expect(isPlaceholder(`${prefix}${word}${random}`)).toBe(true);
        expect(isPlaceholder(`${prefix}${random}${word}`)).toBe(true);
        const cut = 1 + (at % (length - 1));
        if (word.length >= 5)
          expect(isPlaceholder(`${prefix}${random.slice(0, cut)}${word}${random.slice(cut)}`)).toBe(true);
      }),
    );
  });

  test('hand-written stand-ins of provider shapes stay placeholders', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('sk_test_', 'sk_live_', 'ghp_', 'npm_', 'xoxb-', 'AKIA', 'glpat-'),
        fc.constantFrom('x', 'X', '0', '*'),
        fc.integer({ min: 8, max: 40 }),
        (prefix, filler, length) => {
          expect(isPlaceholder(prefix + filler.repeat(length))).toBe(true);
        },
      ),
    );
  });

  test.each([
    'sk_test_xxxxxxxx',
    `ghp_${'X'.repeat(36)}`,
    'your-api-key',
    'ChangeMe',
    'YourApiKey',
    'yourAPIKey',
    'AKIAIOSFODNN7EXAMPLE',
    'AKIA2B3C4D5E6FEXAMPLE',
    'TODO',
    '<TOKEN>',
    '...',
    'sk_live_TODO_replace',
    'npm_dummyToken4f9Kq2LmZ8wX1vB6nY3c',
    `ghp_EXAMPLE${'aB3dE'.repeat(5)}x`,
  ])('%s is a placeholder', (value) => {
    expect(isPlaceholder(value)).toBe(true);
  });

  test('a hand-made ghp_ token with a valid checksum still counts a typed word of six letters or more', () => {
    const body = `EXAMPLE${randomString(23, ALNUM, 'made')}`;
    expect(isPlaceholder(`ghp_${body}${tokenChecksum(body)}`)).toBe(true);
  });
});

describe('runs and sequences that random characters make by chance', () => {
  const HEX = '0123456789abcdef';
  test('six of a kind or six counting up inside 64 random hex digits or 36 random digits is chance: kept', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(['', 64, HEX] as const, ['xoxp-', 36, '0123456789'] as const),
        fc.nat(),
        fc.constantFrom('888888', '345678', '987654', 'abcdef', '000000'),
        fc.nat({ max: 60 }),
        (shape, seed, run, at) => {
          const [prefix, length, alphabet] = shape;
          if (alphabet === '0123456789' && /[a-f]/.test(run)) return;
          const random = randomString(length, alphabet, seed);
          const cut = 1 + (at % (length - 8));
          // A different character on each side, so the spliced run does not grow by chance.
          const value = `${prefix}${random.slice(0, cut)}${run}${random.slice(cut + run.length)}`;
          const grown = /(.)\1{7}|01234567|12345678|23456789|76543210|87654321|98765432/.test(value);
          if (!grown) expect(isPlaceholder(value)).toBe(false);
        },
      ),
    );
  });

  test.each([
    '0'.repeat(32),
    'abcdef1234567890abcdef1234567890',
    '1234567890',
    '123456',
    `sk_live_${'aB3x'.repeat(4)}123456789`,
    `xoxb-${'7'.repeat(12)}-${randomString(24, ALNUM, 'slack')}`,
    `sk_test_${randomString(20, ALNUM, 'run')}zzzzzz`,
  ])('%s is a placeholder', (value) => {
    expect(isPlaceholder(value)).toBe(true);
  });
});

test('a run that is a whole field of the value was typed: a crypt hash with the salt 12345678', () => {
  expect(isPlaceholder(`$5$12345678$${randomString(43, ALNUM, 'crypt')}`)).toBe(true);
  expect(isPlaceholder(`xoxp-${'4'.repeat(3)}123456-${randomString(24, ALNUM, 'field')}`)).toBe(false);
});
