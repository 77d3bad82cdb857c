import { afterEach, describe, expect, test } from 'vitest';
import { fakeChecksumToken, fakeToken } from '../../src/secrets/sample-tokens.js';
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

describe('tollgate scan of large files and many threads', () => {
  const token = fakeChecksumToken('ghp_', 'large-scan-token');

  test('a 20 MB file is streamed in windows: a secret across a window boundary is found once; 1 and 2 threads agree', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    const line = 'const value = "ordinary line of generated data";\n';
    // The stream reads 4,000,000-byte windows: put the secret's line across the first boundary.
    const before = line.repeat(Math.floor(3_999_990 / line.length));
    const pad = 3_999_990 - before.length;
    const straddling = `${'/'.repeat(pad)}\ntoken = "${token}"\n`;
    const after = line.repeat(340_000);
    await repo.write(
      'data/huge.js',
      `${before}${straddling}${after}export const aws = { id: '${keyId}', secret: '${secretKey}' };\n`,
    );
    for (let i = 0; i < 40; i++) await repo.write(`src/file-${i}.js`, `${line.repeat(20_000)}token = "${token}"\n`);
    const runs = [];
    for (const threads of ['1', '2']) {
      const result = await runCli(['scan', '--all', '--format', 'json'], {
        cwd: repo.root,
        env: { ...repo.env, TOLLGATE_SCAN_THREADS: threads },
      });
      expect(result.exitCode).toBe(1);
      expect(result.stdout).not.toContain(token);
      expect(result.stdout).not.toContain(secretKey);
      runs.push(JSON.parse(result.stdout));
    }
    const [one, two] = runs;
    expect(two.findings).toEqual(one.findings);
    expect(one.skipped).toEqual([]);
    const huge = one.findings.filter((finding: { path: string }) => finding.path === 'data/huge.js');
    const lineOf = before.split('\n').length + 1;
    expect(huge.filter((finding: { line: number }) => finding.line === lineOf)).toHaveLength(1);
    expect(
      huge.some(
        (finding: { ruleId: string }) => finding.ruleId === 'aws-secret-access-key' || finding.ruleId.startsWith('aws'),
      ),
    ).toBe(true);
    expect(one.findings.filter((finding: { path: string }) => finding.path.startsWith('src/'))).toHaveLength(40);
    expect(one.scannedFiles).toBe(42);
  }, 120_000);

  test('TOLLGATE_SCAN_THREADS must be a whole number from 1 to 16', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    const result = await runCli(['scan', '--all'], {
      cwd: repo.root,
      env: { ...repo.env, TOLLGATE_SCAN_THREADS: 'many' },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('TOLLGATE_SCAN_THREADS');
  });
});
