import { afterEach, describe, expect, test } from 'vitest';
import { fakeHumanPassword, fakeToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * What users run: `tollgate scan` on files where the credential's name and its value sit in separate fields, or the
 * name ends in `Key`, finds each secret once, masked; the same names with references or data keys find nothing.
 */
let repo: TempRepo;
afterEach(async () => {
  await repo?.cleanup();
});

const password = fakeHumanPassword('scan-split-fields');
const token = fakeToken('', 32, undefined, 'scan-split-fields');

describe('tollgate scan: split name/value fields and Key names', () => {
  test('finds the secrets, masked, and nothing where the same names hold none', async () => {
    repo = await createTempRepo({
      files: {
        'README.md': '# demo\n',
        'tollgate.config.yaml': '',
        'infra/appsettings.json': `[\n  { "name": "DB_PASSWORD", "value": "${password}" },\n  { "name": "API_TOKEN", "value": "@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/t)" }\n]\n`,
        'src/pay.ts': `export const stripeKey = "${token}";\nexport const cacheKey = "${token}";\n`,
      },
    });
    const result = await runCli(['scan', 'infra', 'src', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(
      report.findings.map((item: { ruleId: string; path: string; line: number }) => [
        item.ruleId,
        item.path,
        item.line,
      ]),
    ).toEqual([
      ['generic-password-split-field', 'infra/appsettings.json', 2],
      ['generic-secret-key-name', 'src/pay.ts', 1],
    ]);
    expect(result.stdout).not.toContain(password);
    expect(result.stdout).not.toContain(token);
  });
});
