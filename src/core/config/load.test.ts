import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { checksTool } from '../../validators/checks/index.js';

/** Only the checks validator: these tests pin exact text, which must not move when a validator is added. */
const validators = [checksTool];

import { registriesWith } from '../../../test/support/registries.js';
import { TollgateError } from '../errors.js';
import { applyFlagOverrides, loadConfig, parseConfigText } from './load.js';

const FILE = 'tollgate.config.yaml';

/** The message lines of the TollgateError `run` throws (first line, then details). */
function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof TollgateError) {
      expect(error.code).toBe('config');
      return [error.message, ...error.details];
    }
    throw error;
  }
  throw new Error('expected a TollgateError, but the config loaded');
}

async function rejectionOf(promise: Promise<unknown>): Promise<TollgateError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof TollgateError)) throw error;
  return error;
}

const parse = (text: string, env: Record<string, string | undefined> = {}) =>
  parseConfigText({ text, file: FILE, env, registries: registriesWith(validators) });

describe('invalid configs are reported at file:line:col with the field path', () => {
  test.each([
    {
      name: 'a bad duration',
      text: 'checks:\n  - name: test\n    run: npm test\n    timeout: fast\n',
      expected: ['tollgate.config.yaml:4:14 checks[0].timeout: expected a duration like "90s", got "fast"'],
    },
    {
      name: 'a duration that is neither text nor a number',
      text: 'validation:\n  timeout: true\n',
      expected: ['tollgate.config.yaml:2:12 validation.timeout: expected a duration like "90s", got true'],
    },
    {
      name: 'an unknown top-level key, with a suggestion',
      text: 'base: main\nchekcs: []\n',
      expected: ['tollgate.config.yaml:2:1 unknown key "chekcs" (did you mean "checks"?)'],
    },
    {
      name: 'an unknown top-level key with no close match, listing what is allowed',
      text: 'zzz: 1\n',
      expected: [
        'tollgate.config.yaml:1:1 unknown key "zzz" (expected one of "base", "ignore", "hooks", "permissions", "output", "waivers", "reviewComments", "alerts", "validators", "validation", "checks")',
      ],
    },
    {
      name: 'an unknown nested key',
      text: 'permissions:\n  netwrok: deny\n',
      expected: ['tollgate.config.yaml:2:3 permissions: unknown key "netwrok" (did you mean "network"?)'],
    },
    {
      name: 'an unknown key in a list entry, ignoring case for the suggestion',
      text: 'checks:\n  - name: test\n    run: npm test\n    Timeout: 90s\n',
      expected: ['tollgate.config.yaml:4:5 checks[0]: unknown key "Timeout" (did you mean "timeout"?)'],
    },
    {
      name: 'a wrong type',
      text: 'base: 42\n',
      expected: ['tollgate.config.yaml:1:7 base: expected a string, got 42'],
    },
    {
      name: 'a list where a mapping belongs',
      text: 'permissions: [allow]\n',
      expected: ['tollgate.config.yaml:1:14 permissions: expected a mapping, got a list'],
    },
    {
      name: 'a bad enum value',
      text: 'permissions:\n  network: maybe\n',
      expected: ['tollgate.config.yaml:2:12 permissions.network: expected one of "allow", "deny"; got "maybe"'],
    },
    {
      name: 'a number out of range',
      text: 'validation:\n  concurrency: 100\n',
      expected: ['tollgate.config.yaml:2:16 validation.concurrency: expected at most 64, got 100'],
    },
    {
      name: 'a fraction where an integer belongs',
      text: 'validation:\n  concurrency: 1.5\n',
      expected: ['tollgate.config.yaml:2:16 validation.concurrency: expected an integer, got 1.5'],
    },
    {
      name: 'an empty string',
      text: 'checks:\n  - name: test\n    run: ""\n',
      expected: ['tollgate.config.yaml:3:10 checks[0].run: expected a non-empty string, got ""'],
    },
    {
      name: 'a missing required key, reported on its entry',
      text: 'checks:\n  - name: test\n',
      expected: ['tollgate.config.yaml:2:5 checks[0]: missing required key "run" (a string)'],
    },
    {
      name: 'duplicate check names',
      text: 'checks:\n  - name: test\n    run: a\n  - name: test\n    run: b\n',
      expected: ['tollgate.config.yaml:4:11 checks[1].name: duplicate check name "test" (first used by checks[0])'],
    },
    {
      name: 'a YAML syntax error',
      text: 'checks: [a\nbase: main\n',
      expected: [
        'tollgate.config.yaml:2:1 YAML: flow sequence in block collection must be sufficiently indented and end with a ]',
      ],
    },
    {
      name: 'a duplicate YAML key',
      text: 'base: main\nbase: dev\n',
      expected: ['tollgate.config.yaml:2:1 duplicate key "base"'],
    },
    {
      name: 'an alias without its anchor',
      text: 'base: *nowhere\n',
      expected: ['tollgate.config.yaml:1:7 YAML: alias *nowhere has no anchor &nowhere before it'],
    },
    {
      name: 'an unknown tag',
      text: 'base: !secret main\n',
      expected: ['tollgate.config.yaml:1:7 YAML: unresolved tag: !secret; tags are not supported in the config'],
    },
    {
      name: 'a second YAML document',
      text: 'base: main\n---\nbase: dev\n',
      expected: [
        'tollgate.config.yaml:2:1 YAML: a second document ("---") is not allowed; keep the whole config in one',
      ],
    },
    {
      name: 'a top-level list',
      text: '- checks\n',
      expected: [
        'tollgate.config.yaml:1:1 expected a mapping of settings at the top level (like "checks:"), got a list',
      ],
    },
    {
      name: 'a top-level scalar',
      text: 'hello\n',
      expected: [
        'tollgate.config.yaml:1:1 expected a mapping of settings at the top level (like "checks:"), got "hello"',
      ],
    },
    {
      name: 'an empty list entry',
      text: 'checks:\n  -\n',
      expected: ['tollgate.config.yaml:2:4 checks[0]: expected a mapping, got an empty value'],
    },
    {
      name: 'a __proto__ key, which stays a key',
      text: '__proto__:\n  base: main\n',
      expected: [
        'tollgate.config.yaml:1:1 unknown key "__proto__" (expected one of "base", "ignore", "hooks", "permissions", "output", "waivers", "reviewComments", "alerts", "validators", "validation", "checks")',
      ],
    },
    {
      name: 'every problem at once, in file order',
      text: [
        'chekcs: []',
        'validation:',
        '  timeout: fast',
        '  checks: { enabled: "yes" }',
        'permissions:',
        '  network: maybe',
        'checks:',
        '  - name: test',
        '    run: npm test',
        '    env: { CI: 1 }',
      ].join('\n'),
      expected: [
        'tollgate.config.yaml:1:1 unknown key "chekcs" (did you mean "checks"?)',
        'tollgate.config.yaml:3:12 validation.timeout: expected a duration like "90s", got "fast"',
        'tollgate.config.yaml:4:22 validation.checks.enabled: expected true or false, got "yes"',
        'tollgate.config.yaml:6:12 permissions.network: expected one of "allow", "deny"; got "maybe"',
        'tollgate.config.yaml:10:16 checks[0].env.CI: expected a string, got 1',
      ],
    },
  ])('$name', ({ text, expected }) => {
    expect(problemsOf(() => parse(text))).toEqual(expected);
  });
});

describe('environment switches', () => {
  test.each([
    {
      name: 'a value that is not 0 or 1',
      env: { TOLLGATE_USE_CHECKS: 'yes' },
      expected: ['TOLLGATE_USE_CHECKS: expected 0 or 1, got "yes"'],
    },
    {
      name: 'a validator name that does not exist, with a suggestion',
      env: { TOLLGATE_USE_CHEKS: '1' },
      expected: ['TOLLGATE_USE_CHEKS: no validator is named "cheks" (did you mean TOLLGATE_USE_CHECKS?)'],
    },
  ])('reject $name', ({ env, expected }) => {
    expect(problemsOf(() => parse('', env))).toEqual(expected);
  });

  test('are reported after the file problems, in the same error', () => {
    expect(problemsOf(() => parse('base: 1\n', { TOLLGATE_USE_CHECKS: 'on' }))).toEqual([
      'tollgate.config.yaml:1:7 base: expected a string, got 1',
      'TOLLGATE_USE_CHECKS: expected 0 or 1, got "on"',
    ]);
  });

  test.each([
    { value: '0', enabled: false },
    { value: '1', enabled: true },
    { value: 'false', enabled: false },
    { value: 'TRUE', enabled: true },
  ])('TOLLGATE_USE_CHECKS=$value sets validation.checks.enabled to $enabled over the file', ({ value, enabled }) => {
    const loaded = parse(`validation:\n  checks:\n    enabled: ${!enabled}\n`, { TOLLGATE_USE_CHECKS: value });
    expect(loaded.config.validation.checks).toEqual({ enabled });
    expect(loaded.sources.get('validation.checks.enabled')).toBe('env');
  });

  test('an empty TOLLGATE_USE_CHECKS is ignored', () => {
    const loaded = parse('', { TOLLGATE_USE_CHECKS: '' });
    expect(loaded.sources.get('validation.checks.enabled')).toBe('default');
  });
});

describe('valid configs', () => {
  test.each([
    { name: 'an empty file', text: '' },
    { name: 'a file of comments', text: '# nothing yet\n' },
    { name: 'an explicit null document', text: '~\n' },
  ])('$name gives the defaults', ({ text }) => {
    expect(parse(text).config).toEqual(parse('{}').config);
    expect(parse(text).hash).toBe(parse('{}').hash);
  });

  test('a key with nothing after it means the default', () => {
    const loaded = parse('checks:\n  # - name: test\nvalidation:\nbase:\n');
    expect(loaded.config.checks).toEqual([]);
    expect(loaded.config.base).toBeUndefined();
    expect(loaded.sources.get('checks')).toBe('default');
  });

  test('durations and sizes parse to milliseconds and bytes', () => {
    const loaded = parse(
      'validation:\n  timeout: 1h30m\n  maxFileSize: 2MiB\nchecks:\n  - name: t\n    run: x\n    timeout: 90\n',
    );
    expect(loaded.config.validation.timeout).toBe(5_400_000);
    expect(loaded.config.validation.maxFileSize).toBe(2 * 1024 * 1024);
    expect(loaded.config.checks).toEqual([{ name: 't', run: 'x', timeout: 90_000, env: {}, cwd: '.' }]);
  });

  test('merge keys share settings between checks', () => {
    const loaded = parse('checks:\n  - &slow { name: a, run: x, timeout: 20m }\n  - <<: *slow\n    name: b\n');
    expect(loaded.config.checks).toMatchObject([
      { name: 'a', timeout: 1_200_000 },
      { name: 'b', run: 'x', timeout: 1_200_000 },
    ]);
  });
});

describe('the config hash', () => {
  const variants = [
    'validation:\n  timeout: 90s\n  concurrency: 2\nchecks:\n  - name: test\n    run: npm test\n',
    '# a comment\nchecks: [{run: npm test, name: test}]\n\nvalidation: {concurrency: 2, timeout: 90}\n',
    'checks:\n- run: "npm test"   # quoted\n  name: \'test\'\nvalidation:\n    concurrency: 2\n    timeout: 1m30s\n',
    'validation:\n  concurrency: 2\n  timeout: 90000ms\n  skipTrivial: []\nchecks:\n  - name: test\n    run: npm test\n    timeout: 5m\n    cwd: .\n',
  ];

  test('does not change with formatting, comments, key order or how a value is written', () => {
    const hashes = variants.map((text) => parse(text).hash);
    expect(new Set(hashes).size).toBe(1);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  test('changes when an effective value changes', () => {
    expect(parse(variants[0]!.replace('90s', '91s')).hash).not.toBe(parse(variants[0]!).hash);
    expect(parse('', { TOLLGATE_USE_CHECKS: '0' }).hash).not.toBe(parse('').hash);
  });
});

describe('sources', () => {
  test('name where every setting came from', () => {
    const loaded = parse('validation:\n  timeout: 90s\npermissions: {}\nchecks: []\n', { TOLLGATE_USE_CHECKS: '0' });
    const sources = Object.fromEntries(loaded.sources);
    // Every setting has a source; only those the file or env set are not "default". (A new core section adds
    // defaults here without changing this test.)
    expect(Object.keys(sources)).toEqual(
      expect.arrayContaining(['base', 'ignore', 'hooks.preToolUse', 'waivers.allow']),
    );
    expect(Object.entries(sources).filter(([, source]) => source !== 'default')).toEqual([
      ['validation.timeout', 'file'],
      ['validation.checks.enabled', 'env'],
      ['checks', 'file'],
    ]);
  });

  test('flag overrides set the value, mark it "flag" and recompute the hash, leaving the original alone', () => {
    const loaded = parse('output:\n  format: json\n');
    const overridden = applyFlagOverrides(loaded, {
      base: 'origin/main',
      'output.format': 'sarif',
      'output.file': undefined,
    });
    expect(overridden.config.base).toBe('origin/main');
    expect(overridden.config.output.format).toBe('sarif');
    expect(overridden.sources.get('base')).toBe('flag');
    expect(overridden.sources.get('output.format')).toBe('flag');
    expect(overridden.sources.get('output.file')).toBe('default');
    expect(overridden.hash).not.toBe(loaded.hash);
    expect(loaded.config.base).toBeUndefined();
    expect(loaded.sources.get('output.format')).toBe('file');
    expect(applyFlagOverrides(loaded, {}).hash).toBe(loaded.hash);
  });

  test('a flag override of a setting that does not exist is a programming error', () => {
    expect(() => applyFlagOverrides(parse(''), { 'output.colour': 'red' })).toThrow(
      'applyFlagOverrides: "output.colour" is not a config setting',
    );
  });
});

describe('finding the file', () => {
  let root: string;
  let other: string;
  beforeAll(async () => {
    root = await tempDir('tollgate-config-');
    other = await tempDir('tollgate-elsewhere-');
  });
  afterAll(async () => {
    await removeDir(root);
    await removeDir(other);
  });

  async function inFreshRepo(files: Record<string, string>): Promise<string> {
    const repoRoot = await tempDir('tollgate-config-');
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(repoRoot, name, '..'), { recursive: true });
      await writeFile(join(repoRoot, name), content);
    }
    return repoRoot;
  }

  test('no file gives the defaults and file null', async () => {
    const loaded = await loadConfig({ repoRoot: root, cwd: root, env: {}, registries: registriesWith(validators) });
    expect(loaded.file).toBeNull();
    expect(loaded.hash).toBe(parse('').hash);
  });

  test.each(['tollgate.config.yaml', '.tollgate.yaml'])('%s at the root is read', async (name) => {
    const repoRoot = await inFreshRepo({ [name]: 'base: main\n' });
    const loaded = await loadConfig({ repoRoot, cwd: repoRoot, env: {} });
    expect(loaded.file).toBe(name);
    expect(loaded.config.base).toBe('main');
    await removeDir(repoRoot);
  });

  test('both files present is an error naming both', async () => {
    const repoRoot = await inFreshRepo({ 'tollgate.config.yaml': '', '.tollgate.yaml': '' });
    const error = await rejectionOf(loadConfig({ repoRoot, cwd: repoRoot, env: {} }));
    expect(error.code).toBe('config');
    expect(error.message).toBe(
      'both tollgate.config.yaml and .tollgate.yaml exist at the repository root; keep one (tollgate reads only one config file)',
    );
    await removeDir(repoRoot);
  });

  test('TOLLGATE_CONFIG is read relative to cwd and wins over the root files', async () => {
    const repoRoot = await inFreshRepo({ 'tollgate.config.yaml': 'base: root\n', 'sub/ci.yaml': 'base: ci\n' });
    const loaded = await loadConfig({ repoRoot, cwd: join(repoRoot, 'sub'), env: { TOLLGATE_CONFIG: 'ci.yaml' } });
    expect(loaded.file).toBe('sub/ci.yaml');
    expect(loaded.config.base).toBe('ci');
    await removeDir(repoRoot);
  });

  test('TOLLGATE_CONFIG outside the repository is named by its absolute path in messages', async () => {
    await writeFile(join(other, 'shared.yaml'), 'base: 7\n');
    const error = await rejectionOf(
      loadConfig({ repoRoot: root, cwd: other, env: { TOLLGATE_CONFIG: 'shared.yaml' } }),
    );
    expect(error.message).toBe(`${join(other, 'shared.yaml')}:1:7 base: expected a string, got 7`);
  });

  test('TOLLGATE_CONFIG naming a missing file is an error naming it', async () => {
    const error = await rejectionOf(loadConfig({ repoRoot: root, cwd: root, env: { TOLLGATE_CONFIG: 'nope.yaml' } }));
    expect(error.code).toBe('config');
    expect(error.message).toBe(`TOLLGATE_CONFIG: no file at "nope.yaml" (looked for ${join(root, 'nope.yaml')})`);
  });

  test('TOLLGATE_CONFIG naming a directory is an error', async () => {
    const error = await rejectionOf(loadConfig({ repoRoot: root, cwd: root, env: { TOLLGATE_CONFIG: '.' } }));
    expect(error.message).toBe('TOLLGATE_CONFIG: "." is not a file; point it at a YAML file');
  });
});

describe('credentials', () => {
  test('a bad value under a credential-like key is described without the value', () => {
    expect(
      problemsOf(() => parse('checks:\n  - name: publish\n    run: npm publish\n    env: { NPM_TOKEN: 1234567890 }\n')),
    ).toEqual(['tollgate.config.yaml:4:23 checks[0].env.NPM_TOKEN: expected a string, got a number (value not shown)']);
  });
});
