import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type FakeAgents, helpFileOf, setupFakeAgents } from '../../../test/fakes/fake-agents.js';
import { buildReport, claudeResult } from '../../../test/support/build-report.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { secretFingerprint } from '../../secrets/fingerprint.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { runEvalsCommand } from './evals-command.js';
import { runValidateAlert } from './validate-alert.js';

const PLANTED = fakeChecksumToken('ghp_', 'local-mode-secret');
let repo: TempRepo | undefined;
let fakes: FakeAgents | undefined;

afterEach(async () => {
  await fakes?.cleanup();
  await repo?.cleanup();
  fakes = undefined;
  repo = undefined;
});

test('--local FINGERPRINT validates a `tollgate scan` finding; output goes under .tollgate/alerts/local/<repo>/<id>/', async () => {
  repo = await createTempRepo({ files: { 'src/deploy.sh': `export GH=${PLANTED}\n` } });
  const fingerprint = secretFingerprint('github-pat', 'src/deploy.sh', PLANTED);
  const id = fingerprint.slice(0, 12);
  const report = buildReport({
    repository: `local/${repo.root.split('/').at(-1)}`,
    alertId: id,
    verdict: 'FALSE_POSITIVE',
    risk: 'Low',
    score: '8.0/10 (High)',
  });
  fakes = await setupFakeAgents(
    {
      claude: {
        helpFile: helpFileOf('claude'),
        authArgs: ['auth', 'status'],
        routes: [
          {
            when: 'analysis 1/1 -->',
            steps: [
              {
                stdout: claudeResult(report),
                writeFiles: {
                  'scripts/check-identity.sh': 'echo 401\n',
                  'logs/check-identity.log': `401 ${PLANTED}\n`,
                },
              },
            ],
          },
          { when: 'challenge 0 -->', steps: [{ stdout: claudeResult('{"verdict":"CONFIRMED","reasoning":"ok"}') }] },
        ],
      },
    },
    repo.env,
  );
  let stdout = '';
  const code = await runValidateAlert({
    target: { kind: 'local', fingerprint: id },
    cwd: repo.root,
    env: fakes.env,
    analyses: 1,
    agents: ['claude'],
    json: true,
    showUsage: false,
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
  });
  expect(code).toBe(0);
  const summary = JSON.parse(stdout);
  expect(summary).toMatchObject({ source: 'local', alertId: id, verdict: 'FALSE_POSITIVE', decidedBy: 'single' });
  const alertDir = join(repo.root, '.tollgate', 'alerts', 'local', repo.root.split('/').at(-1)!, id);
  expect(summary.outputDir).toBe(alertDir);
  expect((await readdir(alertDir)).sort()).toEqual(
    expect.arrayContaining(['_shared_repo', 'challenge-1.json', 'final-report.md', 'judge.json', 'report-1.md']),
  );
  // The prompt carried the masked value only; the agent's log was masked after the run.
  const analysisCall = fakes.calls().find((call) => call.call === 'review' && call.stdin.includes('analysis 1/1'))!;
  expect(analysisCall.stdin).not.toContain(PLANTED);
  expect(analysisCall.stdin).toContain('"path": "src/deploy.sh"');
  const ws = (await readdir(alertDir)).find((name) => /^[0-9a-f-]{36}$/.test(name))!;
  expect(await readFile(join(alertDir, ws, 'logs', 'check-identity.log'), 'utf8')).toBe(
    `401 ${PLANTED.slice(0, 4)}…\n`,
  );
  expect(await readFile(join(alertDir, ws, 'stream.log'), 'utf8')).not.toContain(PLANTED);
});

test('--local with an unknown fingerprint is a usage error that says how to list them', async () => {
  repo = await createTempRepo({ files: { 'a.txt': 'nothing\n' } });
  await expect(
    runValidateAlert({
      target: { kind: 'local', fingerprint: 'abcdefabcdef' },
      cwd: repo.root,
      env: repo.env,
      json: false,
      showUsage: false,
      stdout: () => {},
      stderr: () => {},
    }),
  ).rejects.toThrow(
    '--local abcdefabcdef: no secret with this fingerprint in the work tree or the history of HEAD (list them with `tollgate scan --all --format json`)',
  );
});

test('tollgate evals REPORT.md prints each check with its id and exits 1 on an error', async () => {
  repo = await createTempRepo();
  await writeFile(join(repo.root, 'report.md'), buildReport({ score: '7.1/10 (High)' }));
  let out = '';
  const code = await runEvalsCommand({
    report: 'report.md',
    repository: 'octo-org/api',
    alertId: '7',
    json: false,
    cwd: repo.root,
    stdout: (text) => {
      out += text;
    },
  });
  expect(code).toBe(1);
  expect(out).toContain(
    'FAIL verdict.confidence-label: 7.1/10 is Medium (8.0–10 High, 5.0–7.9 Medium, 0–4.9 Low), the report says "High"',
  );
  expect(out).toContain('pass metadata.alert-id: Alert ID is 7');
  expect(out).toContain('skip evidence.referenced-files-exist: no workspace given');
  expect(out.trim().split('\n').at(-1)).toBe('report.md: failed (1 error check), score 88%');
});
