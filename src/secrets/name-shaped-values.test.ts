import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIdentifierShaped, isWordLike, withoutMarkingUnderscores } from './name-shaped-values.js';

// The regular expressions the code replaced: the code must decide every string as they did.
const MARKING_UNDERSCORES = /^_{1,2}(?=[A-Za-z])|(?<=[A-Za-z0-9])_{1,2}$/g;
const byRegex = (word: string): boolean =>
  word.length >= 3 && word.length <= 16 && /[aeiouy]/.test(word) && !/[^aeiouy]{4}|[aeiou]{3}/.test(word);

/** Short strings over the characters the checks tell apart: underscores, vowels, `y`, consonants, digits, capitals. */
const nameLike = fc
  .array(fc.constantFrom('_', '_', 'a', 'e', 'o', 'y', 'b', 'k', 't', 'x', '1', '7', 'A', 'Q', '.', '-'), {
    maxLength: 20,
  })
  .map((chars) => chars.join(''));

describe('withoutMarkingUnderscores', () => {
  it('strips what the regular expression stripped, on any string', () => {
    fc.assert(
      fc.property(nameLike, (value) => {
        expect(withoutMarkingUnderscores(value)).toBe(value.replace(MARKING_UNDERSCORES, ''));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps names whose underscores mark nothing', () => {
    for (const value of ['___meta', 'meta___', '__', '_', '', '_1abc', 'a_b']) {
      expect(withoutMarkingUnderscores(value)).toBe(value.replace(MARKING_UNDERSCORES, ''));
    }
    expect(withoutMarkingUnderscores('__meta__')).toBe('meta');
    expect(withoutMarkingUnderscores('_aj_globalid')).toBe('aj_globalid');
    expect(withoutMarkingUnderscores('key_2_')).toBe('key_2');
  });
});

describe('isWordLike', () => {
  it('reads a word as the regular expressions did', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'e', 'i', 'o', 'u', 'y', 'b', 'c', 'k', 's', 't', 'z', '1'), {
          minLength: 6,
          maxLength: 18,
        }),
        (chars) => {
          const word = chars.join('');
          // The known short words (five letters at most) are words whatever their letters; the rest is the letters' test.
          if (word.length > 5) expect(isWordLike(word)).toBe(byRegex(word));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('still tells names from random letters', () => {
    expect(isIdentifierShaped('cfg_access_key_2')).toBe(true);
    expect(isIdentifierShaped('__my_secret_name__')).toBe(true);
    expect(isIdentifierShaped('SECRET_REF_3')).toBe(true);
    expect(isIdentifierShaped('xkcdqwrt_zzpq')).toBe(false);
    expect(isIdentifierShaped('Tr0ub4dor_3')).toBe(false);
  });
});

// What `isIdentifierShaped` did before it read the words in place: every word a string, matched and lowered.
const IDENTIFIER_SHAPE =
  /^(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z]+)\d{0,4}(?:[-_.=](?:(?:[a-z]+(?:[A-Z][a-z]+)*|[A-Z][a-z]+|[A-Z]+)\d{0,4}|\d{1,8}))*$/;
function identifierShapedByWords(value: string): boolean {
  if (value.length > 80) return false;
  const name = withoutMarkingUnderscores(value);
  if (!IDENTIFIER_SHAPE.test(name)) return false;
  const words = name.match(/[A-Z]?[a-z]+|[A-Z]+/g);
  if (words === null || words.length < 2) return false;
  const named = words.length >= 3 && words[0]!.length <= 2 && name[words[0]!.length] === '_' ? words.slice(1) : words;
  for (const word of named) if (!isWordLike(word.toLowerCase())) return false;
  return true;
}

describe('isIdentifierShaped', () => {
  /** Names made of words, short words, acronyms, digits and separators, and random letters among them. */
  const word = fc.oneof(
    fc.constantFrom('cfg', 'db', 'pw', 'smtp', 'https', 'HTTPS', 'my', 'aj', 'x', 'Q', 'ID', 'Url', 'API'),
    fc.constantFrom('access', 'Key', 'secret', 'TOKEN', 'name', 'Server', 'ref', 'queue', 'strength', 'aeiou', 'yy'),
    fc
      .array(fc.constantFrom('a', 'e', 'o', 'y', 'b', 'k', 't', 'x', 'A', 'E', 'Q', 'Y', 'Z'), {
        minLength: 1,
        maxLength: 18,
      })
      .map((chars) => chars.join('')),
  );
  const part = fc.oneof(word, fc.constantFrom('2', '20240101', '123456789', '_', '__', '-', '.', '='));
  const name = fc.array(part, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
  const joined = fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 6 }), fc.constantFrom('_', '-', '.', '', '_1_'))
    .map(([words, separator]) => words.join(separator));

  it('decides every name as reading each word as a string did', () => {
    fc.assert(
      fc.property(fc.oneof(name, joined), (value) => {
        expect(isIdentifierShaped(value)).toBe(identifierShapedByWords(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('gives the same answers on the row of identifier JSON and on random text', () => {
    // A prefix of one, two or three letters that reads as no word, before words that do (`aj_` is a namespace).
    for (const prefix of ['x', 'xk', 'xkq', 'XK', 'Xk', 'xK', 'aj', 'cfg', 'x1', 'x-']) {
      for (const rest of ['_access_key', '_access', '_access_key_2', '-access-key', 'Access_key']) {
        expect(isIdentifierShaped(prefix + rest)).toBe(identifierShapedByWords(prefix + rest));
      }
    }
    for (let index = 0; index < 200; index++) {
      for (const value of [
        `cfg_access_key_${index}`,
        `cfg_client_secret_${index}`,
        `aj_${index}_x`,
        `HTTPServer_${index}`,
      ]) {
        expect(isIdentifierShaped(value)).toBe(identifierShapedByWords(value));
      }
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 90 }), (value) => {
        expect(isIdentifierShaped(value)).toBe(identifierShapedByWords(value));
      }),
      { numRuns: 2000 },
    );
  });
});
