import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cpuMs } from '../../test/support/cpu-time.js';
import type { SampleContext, SecretRule } from './rule.js';
import { builtinRules, providerCount, providerFiles } from './rules/index.js';
import { SecretScanner } from './scanner.js';
import { toSecretFinding } from './to-finding.js';

const scanner = new SecretScanner(builtinRules);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The standard syntaxes every value-shaped sample must be found in. */
const STANDARD_CONTEXTS = (key: string): SampleContext[] => [
  { name: 'env', path: '.env', render: (v) => `# service settings\n${key}=${v}\n` },
  {
    name: 'YAML',
    path: 'config/app.yaml',
    render: (v) =>
      v.includes('\n')
        ? `settings:\n  ${key}: |\n${v
            .split('\n')
            .map((line) => `    ${line}`)
            .join('\n')}\n`
        : `settings:\n  ${key}: ${v}\n`,
  },
  { name: 'JSON', path: 'config/app.json', render: (v) => `${JSON.stringify({ settings: { [key]: v } }, null, 2)}\n` },
  {
    name: 'TOML',
    path: 'config/app.toml',
    render: (v) => `[settings]\n${IDENTIFIER.test(key) ? key : JSON.stringify(key)} = ${JSON.stringify(v)}\n`,
  },
  {
    name: 'code',
    path: 'src/settings.ts',
    render: (v) =>
      `export const settings = {\n  ${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${JSON.stringify(v)},\n};\n`,
  },
  { name: 'shell export', path: 'scripts/env.sh', render: (v) => `#!/bin/sh\nexport ${key}='${v}'\n` },
];

function contextsOf(rule: SecretRule): readonly SampleContext[] {
  return rule.samples.contexts ?? STANDARD_CONTEXTS(rule.samples.key ?? 'value');
}

function providerOf(rule: SecretRule): string {
  return Object.entries(providerFiles()).find(([, rules]) => rules.includes(rule))![0];
}

/**
 * One test per rule, its samples in every syntax checked in a loop: a test each (23,000 of them) cost the suite more in
 * the runner's bookkeeping than in scanning. A failure still names the rule, the sample and the syntax.
 */
const ruleCases = builtinRules.map((rule) => ({ id: rule.id, rule }));

function everySampleIn(
  rule: SecretRule,
  samples: readonly string[],
  check: (sample: string, context: SampleContext, label: string) => void,
): void {
  samples.forEach((sample, index) => {
    for (const context of contextsOf(rule)) check(sample, context, `${rule.id} sample ${index} in ${context.name}`);
  });
}

describe('rule pack', () => {
  test('has at least 80 rules', () => {
    expect(builtinRules.length).toBeGreaterThanOrEqual(80);
  });

  test('every rule declares its provider, a format reference and samples to match and to ignore', () => {
    const lacking = builtinRules
      .filter(
        (rule) =>
          !rule.provider ||
          !/^https:\/\/[^\s)]+$/.test(rule.reference ?? '') ||
          rule.samples.match.length === 0 ||
          rule.samples.ignore.length === 0,
      )
      .map((rule) => rule.id);
    expect(lacking).toEqual([]);
  });

  test('the provider files hold exactly the built-in rules, the same objects in the same order', () => {
    expect(Object.values(providerFiles()).flat()).toEqual(builtinRules);
    const listed = Object.values(providerFiles()).flat();
    expect(listed.every((rule, index) => rule === builtinRules[index])).toBe(true);
    // The generic assignments come last: every other rule wins over them on the same text.
    expect(Object.keys(providerFiles()).at(-1)).toBe('generic');
  });

  test('knows at least 500 providers', () => {
    expect(providerCount()).toBeGreaterThanOrEqual(500);
  });

  test('ids are unique, kebab-case and start with their provider file', () => {
    const ids = builtinRules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of builtinRules) {
      expect(rule.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(rule.id.startsWith(`${providerOf(rule)}-`), `${rule.id} should start with "${providerOf(rule)}-"`).toBe(
        true,
      );
    }
  });

  test.each(builtinRules.map((rule) => ({ id: rule.id, rule })))(
    '$id: every keyword occurs in every match sample',
    ({ rule }) => {
      expect(rule.keywords.length).toBeGreaterThan(0);
      expect(rule.samples.match.length).toBeGreaterThan(0);
      const missing: string[] = [];
      for (const sample of rule.samples.match) {
        for (const context of contextsOf(rule)) {
          const text = context.render(sample).toLowerCase();
          if (!rule.keywords.some((keyword) => text.includes(keyword.toLowerCase()))) {
            missing.push(`${rule.id}: no keyword of ${JSON.stringify(rule.keywords)} in the ${context.name} sample`);
          }
        }
      }
      expect(missing).toEqual([]);
    },
  );
});

/**
 * Each sample's checks are collected and asserted once per rule: an `expect` call costs vitest about as much as
 * scanning a sample (its matcher state is copied at every call), and these loops make tens of thousands of them.
 * A failure still names the rule, the sample, the syntax and what was wrong.
 */
describe('match samples are found exactly once, masked, in every syntax', () => {
  test.each(ruleCases)('$id finds each match sample in each syntax', ({ rule }) => {
    const problems: string[] = [];
    everySampleIn(rule, rule.samples.match, (sample, context, label) => {
      const text = context.render(sample);
      const found = scanner.scanText(text, { path: context.path });
      const ids = found.map((item) => item.rule.id);
      if (ids.length !== 1 || ids[0] !== rule.id) {
        problems.push(`${label}: found ${JSON.stringify(ids)}, expected ["${rule.id}"]`);
        return;
      }
      const finding = toSecretFinding(found[0]!, context.path, true);
      if (!finding.masked.endsWith('…')) problems.push(`${label}: masked ${finding.masked} does not end with …`);
      if (finding.masked.length > 5) problems.push(`${label}: masked ${finding.masked} is longer than 5`);
      if (!sample.includes(finding.masked.slice(0, -1))) problems.push(`${label}: masked ${finding.masked} not in it`);
      if (JSON.stringify(finding).includes(found[0]!.secret)) problems.push(`${label}: the finding holds the secret`);
    });
    expect(problems).toEqual([]);
  });
});

describe('ignore samples produce nothing', () => {
  test.each(ruleCases)('$id ignores each ignore sample in each syntax', ({ rule }) => {
    const problems: string[] = [];
    everySampleIn(rule, rule.samples.ignore, (sample, context, label) => {
      const found = scanner.scanText(context.render(sample), { path: context.path });
      if (found.length > 0) problems.push(`${label}: found ${JSON.stringify(found.map((item) => item.rule.id))}`);
    });
    expect(problems).toEqual([]);
  });
});

/** Inputs that make a backtracking regex blow up: long runs of what the pattern half-accepts. */
function adversarialInputs(rule: SecretRule, size: number): string[] {
  const keyword = rule.keywords[0]!;
  const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  return [
    fill(keyword),
    keyword + fill('A'),
    keyword + fill('a1'),
    keyword + fill('-'),
    `${keyword} = "${fill('a')}`,
    fill(`${keyword}=`),
    fill(`${keyword}_a.`),
    fill(' '),
    fill(':a@'),
    `-----BEGIN ${fill('A')}`,
    fill('a'.repeat(30) + keyword),
  ];
}

/** CPU time, not wall time: a process waiting for a core on a busy machine would look like a slow pattern. */
function timeRule(regex: RegExp, inputs: string[]): number {
  return cpuMs(() => {
    for (const input of inputs) {
      regex.lastIndex = 0;
      let guard = 0;
      while (regex.exec(input) !== null && guard++ < 100_000) {
        if (regex.lastIndex === 0) break;
      }
    }
  });
}

describe('linear time', () => {
  test.each(builtinRules.map((rule) => ({ id: rule.id, rule })))(
    '$id stays linear on adversarial input',
    ({ rule }) => {
      const regex = new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('g', '')}g`);
      const small = timeRule(regex, adversarialInputs(rule, 4_000));
      const bigInputs = adversarialInputs(rule, 32_000);
      // 8× the input: a linear pattern takes about 8× the time; a quadratic one 64×. Allow noise on tiny timings.
      const limit = Math.max(small * 24, 60);
      // A garbage collection or a cold cache can still slow one timing; the fastest of three attempts is what the
      // pattern costs. A quadratic pattern is slow every time.
      let large = timeRule(regex, bigInputs);
      for (let attempt = 1; attempt < 3 && large >= limit; attempt++)
        large = Math.min(large, timeRule(regex, bigInputs));
      expect(large, `${rule.id}: ${small.toFixed(1)} ms → ${large.toFixed(1)} ms`).toBeLessThan(limit);
    },
  );

  test('the whole scanner stays linear on random input (fast-check)', () => {
    const alphabet = 'aA0_-=:"\' \n/+.@$\\{}<>~';
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(...alphabet.split(''), 'password', 'token', 'ghp_', '-----BEGIN ', 'https://', 'eyJ'),
          {
            maxLength: 400,
          },
        ),
        (parts) => {
          const text = parts.join('').repeat(50);
          let found: ReturnType<typeof scanner.scanText> = [];
          expect(cpuMs(() => (found = scanner.scanText(text, { path: 'fuzz.env' })))).toBeLessThan(1000);
          for (const item of found) expect(item.end).toBeGreaterThan(item.start);
        },
      ),
      { numRuns: 60 },
    );
  });

  // The bound (CPU time) is far above what this takes (well under a second) and far below what a super-linear pattern
  // needs on a megabyte (minutes): a busy machine does not fail it, a regression does not pass it.
  test.each([
    ['password=', 'config'],
    ['"token": "', 'json'],
    ['-----BEGIN RSA PRIVATE KEY-----\n', 'pem'],
    ['https://u:p@', 'url'],
    ['secret_key_secret_key_', 'names'],
  ])('a megabyte of %j scans in well under a second', (unit) => {
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    expect(cpuMs(() => scanner.scanText(text, { path: 'big.env' }))).toBeLessThan(10_000);
  });
});
