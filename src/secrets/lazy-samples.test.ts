import { describe, expect, it, vi } from 'vitest';
import type { SecretRule } from './rule.js';

type Rules = readonly SecretRule[];

/** Every rule's samples, read in the given order, as plain data. */
function samplesOf(rules: Rules, order: readonly number[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const index of order) {
    const { key, match, ignore, contexts } = rules[index]!.samples;
    out[rules[index]!.id] = { key, match, ignore, contexts: contexts?.map((context) => context.name) };
  }
  return out;
}

async function freshRules(): Promise<Rules> {
  vi.resetModules();
  return (await import('./rules/index.js')).builtinRules;
}

describe('rule samples are made when first read', () => {
  it('loading the rules makes none of them', async () => {
    vi.resetModules();
    const tokens = await import('./sample-tokens.js');
    const made = vi.fn();
    // Every generator, counted (a generator's calls to the others inside its module are not).
    const counted = Object.fromEntries(
      Object.entries(tokens).map(([name, value]) =>
        typeof value === 'function' && name !== 'lazySamples'
          ? [
              name,
              (...args: unknown[]) => {
                made(name);
                return (value as (...a: unknown[]) => unknown)(...args);
              },
            ]
          : [name, value],
      ),
    );
    vi.doMock('./sample-tokens.js', () => counted);
    try {
      const { builtinRules } = await import('./rules/index.js');
      // A handful of fixed salts stay eager (password hashes, prose examples); hundreds of samples did before.
      expect(made.mock.calls.length).toBeLessThan(20);
      const calls = made.mock.calls.length;
      for (const rule of builtinRules) expect(rule.samples.match).toBeDefined();
      expect(made.mock.calls.length).toBeGreaterThan(calls);
    } finally {
      vi.doUnmock('./sample-tokens.js');
    }
  });

  it('are the same whatever order they are read in', async () => {
    const forward = await freshRules();
    const inOrder = samplesOf(
      forward,
      forward.map((_, index) => index),
    );
    const backward = await freshRules();
    expect(backward).not.toBe(forward);
    const reversed = samplesOf(
      backward,
      backward.map((_, index) => backward.length - 1 - index),
    );
    expect(reversed).toEqual(inOrder);
  });

  it('are made once', async () => {
    const rules = await freshRules();
    const rule = rules.find((candidate) => candidate.id === 'stripe-secret-key')!;
    expect(rule.samples.match).toBe(rule.samples.match);
    expect(rule.samples.match[0]).toMatch(rule.pattern);
  });
});

describe('rules without samples', () => {
  it('config and imported gitleaks rules share one empty set, with the fields a set of their own had', async () => {
    const { compileCustomRule } = await import('./custom-rules.js');
    const { importGitleaksConfig } = await import('./gitleaks-config.js');
    const custom = (id: string) =>
      compileCustomRule({
        id,
        pattern: 'acme_([a-z0-9]{32})',
        keywords: ['acme_'],
        severity: 'high',
        caseInsensitive: false,
      });
    const imported = importGitleaksConfig(
      '[[rules]]\nid = "a"\nregex = "a_[0-9]{8}"\n[[rules]]\nid = "b"\nregex = "b_[0-9]{8}"\n',
      '.gitleaks.toml',
    ).rules;
    const sets = [custom('acme-one').samples, custom('acme-two').samples, ...imported.map((rule) => rule.samples)];
    expect(sets).toHaveLength(4);
    for (const samples of sets) {
      expect(samples).toBe(sets[0]);
      expect({ ...samples }).toStrictEqual({ match: [], ignore: [] });
      expect([samples.key, samples.contexts]).toEqual([undefined, undefined]);
    }
    // Shared, so no rule can change another's.
    expect(Object.isFrozen(sets[0]) && Object.isFrozen(sets[0]!.match) && Object.isFrozen(sets[0]!.ignore)).toBe(true);
  });
});
