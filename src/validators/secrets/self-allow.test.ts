import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { changeSetFromRepo, secretsContext } from '../../../test/support/secrets-context.js';
import { BASE32, fakeChecksumToken, fakeToken } from '../../secrets/sample-tokens.js';
import { secretsTool } from './index.js';
import { runPreCommit } from './pre-commit/run-pre-commit.js';
import { runScanCommand, type ScanCommandFlags } from './scan-command.js';

/**
 * An allow marker the same change adds does not clear its own high or critical secret, on every surface that judges a
 * change (the gate, `scan --staged` and the pre-commit hook, `scan --history`), and no message tells the reader to
 * add one.
 */
let repo: TempRepo;
afterEach(() => repo.cleanup());

const critical = fakeChecksumToken('ghp_', 'self-allow');
const high = `AKIA${fakeToken('', 16, BASE32, 'self-allow-aws')}`;
const SUGGESTS_MARKER = /add .?(tollgate|gitleaks):allow|takes .?tollgate:allow/i;

async function scan(partial: Partial<ScanCommandFlags>) {
  let stdout = '';
  const code = await runScanCommand(
    { paths: [], staged: false, all: false, format: 'json', baselineWrite: false, ...partial },
    {
      cwd: repo.root,
      env: repo.env,
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
    },
  );
  return { code, stdout, json: JSON.parse(stdout) as { findings: { ruleId: string; suppression?: string }[] } };
}

test('the gate refuses a high (not only critical) secret that its own change allows inline', async () => {
  repo = await createTempRepo({ files: { 'README.md': 'x\n' } });
  await repo.write('deploy.sh', `export AWS_ACCESS_KEY_ID=${high} # tollgate:allow\n`);
  const result = await secretsTool.run(secretsContext(repo.root, await changeSetFromRepo(repo.root, repo.env), {}, {}));
  expect(result.status).toBe('failed');
  expect(result.findings.map((finding) => [finding.ruleId, finding.severity])).toEqual([['aws-access-key-id', 'high']]);
  expect(result.details?.secrets).toMatchObject([{ suppressionRejected: 'inline-added' }]);
  expect(result.summary).not.toMatch(SUGGESTS_MARKER);
});

describe('pre-commit hook and scan --staged', () => {
  test.each([
    ['critical', critical, 'app.env', `TOKEN=${critical} # tollgate:allow\n`],
    ['high', high, 'deploy.sh', `export AWS_ACCESS_KEY_ID=${high} # gitleaks:allow\n`],
  ])('a %s secret staged with its own allow marker blocks the commit', async (_severity, secret, path, content) => {
    repo = await createTempRepo({ files: { 'README.md': 'x\n' } });
    await repo.write(path, content);
    await repo.git('add', path);
    const hook = await runPreCommit({ cwd: repo.root, env: repo.env });
    expect(hook.exitCode).toBe(1);
    expect(hook.message).toContain(
      'its allow marker is new in this commit, which does not clear a high or critical secret',
    );
    expect(hook.message).not.toContain(secret);
    expect(hook.message).not.toMatch(SUGGESTS_MARKER);
    const staged = await scan({ staged: true });
    expect(staged.code).toBe(1);
    expect(staged.json.findings).toMatchObject([{ suppression: 'inline-added' }]);
    expect(staged.stdout).not.toMatch(SUGGESTS_MARKER);
  });

  test('a marker on a low finding still clears it, and a committed marker on an old line is not re-judged', async () => {
    repo = await createTempRepo({ files: { 'old.env': `TOKEN=${critical} # tollgate:allow\n` } });
    await repo.write('pay.ts', `export const key = "${fakeToken('sk_test_', 24)}"; // tollgate:allow\n`);
    await repo.write('old.env', `TOKEN=${critical} # tollgate:allow\nOTHER=1\n`);
    await repo.git('add', '-A');
    expect(await runPreCommit({ cwd: repo.root, env: repo.env })).toEqual({ exitCode: 0, message: '' });
  });
});

test('scan --history refuses a marker the same commit adds on a high or critical secret', async () => {
  repo = await createTempRepo({ files: { 'README.md': 'x\n' } });
  const base = (await repo.git('rev-parse', 'HEAD')).trim();
  await repo.write('app.env', `TOKEN=${critical} # tollgate:allow\n`);
  await repo.commit('add a token, allowed by itself');
  const history = await scan({ history: `${base}..HEAD` });
  expect(history.code).toBe(1);
  expect(history.json.findings).toMatchObject([{ ruleId: 'github-pat', suppression: 'inline-added' }]);
  expect(history.stdout).not.toMatch(SUGGESTS_MARKER);
  // Scanning files as they are (no change to judge) still honours the marker.
  expect((await scan({ paths: ['app.env'] })).code).toBe(0);
});
