import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { RULE_TABLE_PATH, renderRuleTable, ruleCounts, withRuleCounts } from './rule-docs.js';
import { builtinRules } from './rules/index.js';
import { LONG_TAIL_RULES } from './rules/long-tail.js';
import { NAMED_PROVIDER_RULES } from './rules/named-providers.js';
import { PROVIDER_INFO } from './rules/providers.js';
import { FORMAT_PROVIDER_RULES } from './rules/providers-formats.js';
import { MORE_NAMED_RULES } from './rules/providers-named-more.js';
import { SAAS_NAMED_RULES } from './rules/providers-named-saas.js';
import { VERIFIERS } from './verify/verifiers.js';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('generated rule docs', () => {
  test(`${RULE_TABLE_PATH} is what \`npm run docs:rules\` writes`, () => {
    expect(read(RULE_TABLE_PATH)).toBe(renderRuleTable());
  });

  test("every built-in rule has a row that links its format's reference", () => {
    const table = renderRuleTable();
    const missing = builtinRules
      .filter((rule) => !table.includes(`| \`${rule.id}\` |`) || !rule.reference?.startsWith('https://'))
      .map((rule) => rule.id);
    expect(missing).toEqual([]);
    const rows = table.split('\n').filter((line) => line.startsWith('| ') && line.includes('[format]('));
    expect(rows.length).toBe(builtinRules.length);
    for (const row of rows) expect(row).toMatch(/\| \[format\]\(https:\/\/[^\s)]+\) \|$/);
  });

  test.each(['README.md', 'docs/validators/secrets.md'])('%s states the real rule and provider counts', (path) => {
    const text = read(path);
    const { rules, providers } = ruleCounts();
    expect(text).toContain(`${rules} rules for ${providers} providers`);
    expect(withRuleCounts(text)).toBe(text);
  });

  test('every verifier belongs to a built-in rule, and the table marks exactly those rules verified', () => {
    const ids = new Set(builtinRules.map((rule) => rule.id));
    expect([...VERIFIERS.keys()].filter((id) => !ids.has(id))).toEqual([]);
    const verifiedRows = renderRuleTable()
      .split('\n')
      .filter((line) => line.startsWith('| ') && / \| yes \| \[format\]/.test(line))
      .map((line) => /`([^`]+)`/.exec(line)![1]);
    expect(verifiedRows.sort()).toEqual([...VERIFIERS.keys()].sort());
  });

  test('the long-tail tables add providers, never replace a provider file', () => {
    const existing = Object.keys(PROVIDER_INFO);
    expect(Object.keys(LONG_TAIL_RULES).filter((key) => existing.includes(key))).toEqual([]);
    expect(Object.keys(NAMED_PROVIDER_RULES).filter((key) => existing.includes(key))).toEqual([]);
    expect(Object.keys(FORMAT_PROVIDER_RULES).filter((key) => existing.includes(key))).toEqual([]);
    expect(Object.keys(MORE_NAMED_RULES).filter((key) => existing.includes(key))).toEqual([]);
    expect(Object.keys(SAAS_NAMED_RULES).filter((key) => existing.includes(key))).toEqual([]);
  });
});
