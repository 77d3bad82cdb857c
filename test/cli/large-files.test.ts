import { afterEach, describe, expect, test } from 'vitest';
import { fakeToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/** Every byte of a changed file is examined: a secret at the end of a 6.5 MB file fails the gate. */
let repo: TempRepo;
afterEach(() => repo.cleanup());

const keyId = fakeToken('AKIA', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 'large-file-id');
const secretKey = fakeToken('', 40, undefined, 'large-file-secret');

describe('large changed files', () => {
  test('a 6.5 MB file with an AWS key pair at its end fails; the key is never printed', async () => {
    repo = await createTempRepo({
      files: { 'README.md': '# x\n', 'tollgate.config.yaml': 'validation:\n  advisories: { enabled: false }\n' },
    });
    const filler = `${'const value = "ordinary line of generated data";\n'.repeat(130_000)}`;
    await repo.write('data/dump.js', `${filler}export const aws = { id: '${keyId}', secret: '${secretKey}' };\n`);
    const result = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout);
    const secrets = report.tools.find((tool: { name: string }) => tool.name === 'secrets');
    expect(secrets.status).toBe('failed');
    expect(
      secrets.findings.some(
        (finding: { path?: string; line?: number }) => finding.path === 'data/dump.js' && finding.line === 130_001,
      ),
    ).toBe(true);
    expect(result.stdout).not.toContain(secretKey);
  }, 60_000);
});
