import { describe, expect, test } from 'vitest';
import { loadScanner } from './load-rules.js';
import { defaultSecretsOptions } from './options.js';
import type { SecretRule } from './rule.js';
import { builtinRules, providerFiles } from './rules/index.js';
import { uniformRule } from './uniform-rule.js';

describe('uniformRule', () => {
  test('every built-in rule has the same fields in the same order (one shape for the scan’s hot code)', () => {
    const orders = new Set(builtinRules.map((rule) => Object.keys(rule).join(',')));
    expect(orders.size).toBe(1);
  });

  test('the provider files hold the same objects as builtinRules', () => {
    const all = new Set(builtinRules);
    for (const rules of Object.values(providerFiles())) for (const rule of rules) expect(all.has(rule)).toBe(true);
  });

  test('keeps every field the rule has, and adds the others as undefined', () => {
    const minimal: SecretRule = {
      id: 'x',
      title: 'X',
      severity: 'high',
      keywords: ['x_'],
      pattern: /x_[a-z]{8}/,
      samples: { match: ['x_abcdefgh'], ignore: [] },
    };
    const uniform = uniformRule(minimal);
    for (const [key, value] of Object.entries(minimal)) expect(uniform[key as keyof SecretRule]).toBe(value);
    expect(uniform.generic).toBeUndefined();
    expect(uniform.validate).toBeUndefined();
    expect(Object.keys(uniform)).toEqual(Object.keys(uniformRule(builtinRules[0]!)));
    for (const rule of builtinRules.slice(0, 50))
      for (const [key, value] of Object.entries(rule)) expect(uniformRule(rule)[key as keyof SecretRule]).toBe(value);
  });

  test('a config rule joins the built-in rules with their shape', async () => {
    const custom = {
      id: 'acme',
      severity: 'high' as const,
      keywords: ['acme_'],
      pattern: 'acme_[a-z0-9]{16}',
      caseInsensitive: false,
    };
    const options = { ...defaultSecretsOptions(), rules: [custom] };
    const { scanner } = await loadScanner('/nonexistent-repo', options, async () => null);
    const orders = new Set(scanner.rules.map((rule) => Object.keys(rule).join(',')));
    expect(scanner.rules.some((rule) => rule.id === 'acme')).toBe(true);
    expect(orders.size).toBe(1);
  });
});
