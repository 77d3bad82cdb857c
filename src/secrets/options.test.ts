import { describe, expect, test } from 'vitest';
import { registriesWith } from '../../test/support/registries.js';
import { ONE_SHOT } from '../core/state/atomic-write.js';
import { defaultSecretsOptions, secretsOptionsSchema } from './options.js';

const rule = (pattern: string, extra: Record<string, unknown> = {}) => ({
  id: 'acme-key',
  pattern,
  keywords: ['acme'],
  ...extra,
});

describe('secrets.rules[].pattern', () => {
  test.each([['acme_[a-z0-9]{32}'], ['acme_(?:[a-z]+\\.)+com']])('accepts %s', (pattern) => {
    expect(secretsOptionsSchema().safeParse({ rules: [rule(pattern)] }).success).toBe(true);
  });

  test.each([
    ['acme=(a+)+', {}],
    ['acme=(\\w+\\s?)*', {}],
    ['acme=(?:[a-z]+A)+', { caseInsensitive: true }],
  ])('rejects %s as super-linear, at secrets.rules[1].pattern', (pattern, extra) => {
    const parsed = secretsOptionsSchema().safeParse({
      rules: [rule('acme_[a-z]{8}'), rule(pattern, { id: 'b', ...extra })],
    });
    expect(parsed.success).toBe(false);
    const issues = parsed.error!.issues;
    expect(issues.map((issue) => issue.path)).toEqual([['rules', 1, 'pattern']]);
    expect(issues[0]!.message).toMatch(/^may take super-linear time \(/);
  });
});

test('the config error names the file position and field, and shows the reason despite the credential-like key', async () => {
  const { parseConfigText } = await import('../core/config/index.js');
  const { secretsTool } = await import('../validators/secrets/index.js');
  const text = 'secrets:\n  rules:\n    - id: acme-key\n      pattern: "(a+)+b"\n      keywords: [acme]\n';
  expect(() =>
    parseConfigText({ text, file: 'tollgate.config.yaml', env: {}, registries: registriesWith([secretsTool]) }),
  ).toThrow(
    'tollgate.config.yaml:4:16 secrets.rules[0].pattern: may take super-linear time (nested quantifiers in (a+)+); make repeated parts unable to match the same text, e.g. "(?:[a-z]+\\.)+" not "(?:[a-z]+\\.?)+"',
  );
});

describe('the secrets defaults', () => {
  test('defaultSecretsOptions() is what the schema makes of no section, key for key', () => {
    expect(defaultSecretsOptions()).toStrictEqual(secretsOptionsSchema().parse(undefined));
    expect(defaultSecretsOptions()).toStrictEqual(secretsOptionsSchema().parse({}));
  });

  test('each call is a fresh object: a caller that changes its copy changes no other', () => {
    const first = defaultSecretsOptions();
    first.paths.push('vendor/**');
    expect(defaultSecretsOptions().paths).toEqual([]);
  });
});

test("the scan's one-shot re-parse of a loaded section gives what the compiled parse gives, and the section itself", async () => {
  const { parseConfigText } = await import('../core/config/index.js');
  const { secretsTool } = await import('../validators/secrets/index.js');
  const text =
    'secrets:\n  paths: ["test/fixtures/**"]\n  rules:\n    - id: acme-key\n      pattern: "acme_[a-z0-9]{32}"\n      keywords: [acme]\n';
  const loaded = parseConfigText({
    text,
    file: 'tollgate.config.yaml',
    env: {},
    registries: registriesWith([secretsTool]),
  });
  const section = loaded.config.secrets;
  const oneShot = secretsOptionsSchema().parse(section, ONE_SHOT);
  expect(oneShot).toStrictEqual(secretsOptionsSchema().parse(section));
  expect(oneShot).toStrictEqual(section);
});
