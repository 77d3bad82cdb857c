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
