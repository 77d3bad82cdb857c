import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { secretGroupNames } from './scan-results.js';

/** What the compiled pattern itself lists: an empty alternative matches '' and names every group. */
function compiledGroupNames(pattern: RegExp): string[] {
  const groups = new RegExp(`${pattern.source}|`, pattern.flags.replace(/[gy]/g, '')).exec('')?.groups;
  return groups ? Object.keys(groups).filter((name) => name.startsWith('secret')) : [];
}

describe('secretGroupNames', () => {
  test('reads the secret groups from the source, in pattern order, past escapes, classes and look-behinds', () => {
    expect(secretGroupNames(/(?<name>k)=(?<secretB>x)(?<=y)(?<!z)\(?<secretNot>[(?<secretNo>](?<secretA>w)/)).toEqual([
      'secretB',
      'secretA',
    ]);
  });

  test('lists what the compiled pattern lists, for every built-in rule', () => {
    for (const rule of builtinRules)
      expect(secretGroupNames(rule.pattern), rule.id).toEqual(compiledGroupNames(rule.pattern));
  });
});
