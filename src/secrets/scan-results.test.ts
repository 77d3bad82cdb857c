import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { secretGroupNames } from './scan-results.js';

/** What the compiled pattern itself lists: an empty alternative matches '' and names every group. */
function compiledGroupNames(pattern: RegExp): string[] {
  const groups = new RegExp(`${pattern.source}|`, pattern.flags.replace(/[gy]/g, '')).exec('')?.groups;
  return groups ? Object.keys(groups).filter((name) => name.startsWith('secret')) : [];
}

/** The walk `secretGroupNames` did before it read the source with one regular expression: the reference. */
function walkedGroupNames(source: string): string[] {
  const names: string[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(' && source.startsWith('?<', i + 1)) {
      const name = /^[A-Za-z_$][\w$]*(?=>)/.exec(source.slice(i + 3, i + 100))?.[0];
      if (name?.startsWith('secret')) names.push(name);
    }
  }
  return names;
}

describe('secretGroupNames', () => {
  test('reads the secret groups from the source, in pattern order, past escapes, classes and look-behinds', () => {
    expect(secretGroupNames(/(?<name>k)=(?<secretB>x)(?<=y)(?<!z)\(?<secretNot>[(?<secretNo>](?<secretA>w)/)).toEqual([
      'secretB',
      'secretA',
    ]);
  });

  test('reads any text as the walk through it did', () => {
    const piece = fc.constantFrom(
      '\\',
      '[',
      ']',
      '(',
      ')',
      '?',
      '<',
      '>',
      '=',
      '!',
      '^',
      'secret',
      'secretA',
      's',
      'x',
      '$',
      '_',
      '1',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const source = pieces.join('');
        expect(secretGroupNames({ source } as RegExp)).toEqual(walkedGroupNames(source));
      }),
      { numRuns: 5000 },
    );
    for (const length of [95, 96, 97, 120]) {
      const source = `(?<secret${'x'.repeat(length - 6)}>a)`;
      expect(secretGroupNames({ source } as RegExp)).toEqual(walkedGroupNames(source));
    }
  });

  test('lists what the compiled pattern lists, for every built-in rule', () => {
    for (const rule of builtinRules)
      expect(secretGroupNames(rule.pattern), rule.id).toEqual(compiledGroupNames(rule.pattern));
  });
});
