import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type FakeAgents, type FakeReviewStep, helpFileOf, setupFakeAgents } from '../../../test/fakes/fake-agents.js';
import { type FakeGithubRest, startFakeGithubRest } from '../../../test/fakes/github-rest/server.js';
import { makeTestCa, removeTestCa, startFakeProvider } from '../../../test/fakes/https-provider/fake-provider.js';
import { buildReport, claudeResult } from '../../../test/support/build-report.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { maskSecret } from '../../secrets/mask.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { runValidateAlert, type ValidateAlertOptions } from './validate-alert.js';

/**
 * validate-alert end to end, offline: a local bare repository whose secret lives only in an OLD commit, the fake
 * GitHub REST server, fake agent CLIs (the `claude` fake) and a `git` wrapper that logs every argv.
 */
const PLANTED = fakeChecksumToken('ghp_', 'planted-alert-secret');
const CREDENTIAL = fakeChecksumToken('ghp_', 'tollgate-api-credential');

let source: TempRepo;
let work: string;
let bare: string;
let bareDir: string;
let oldCommit: string;
let server: FakeGithubRest;
let fakes: FakeAgents | undefined;
let gitLog: string;
let wrapperDir: string;

/** The repository the alert is in, and the bare clone the fake GitHub serves: made once, read by every test. */
beforeAll(async () => {
  source = await createTempRepo({ files: { 'config/prod.env': `GITHUB_TOKEN=${PLANTED}\n`, 'README.md': '# api\n' } });
  oldCommit = (await source.git('rev-parse', 'HEAD')).trim();
  await source.write('config/prod.env', '# GITHUB_TOKEN comes from the environment\n');
  await source.commit('load the token from the environment');
  bareDir = await tempDir('tollgate-alert-origin-');
  bare = join(bareDir, 'api.git');
  await source.git('clone', '--quiet', '--bare', source.root, bare);
});

afterAll(async () => {
  await source?.cleanup();
  if (bareDir) await removeDir(bareDir);
});

beforeEach(async () => {
  work = await tempDir('tollgate-alert-work-');
  server = await startFakeGithubRest({
    token: CREDENTIAL,
    repos: {
      'octo-org/api': {
        clone_url: `file://${bare}`,
        alerts: {
          7: {
            number: 7,
            state: 'open',
            secret_type: 'github_personal_access_token',
            secret_type_display_name: 'GitHub Personal Access Token',
            secret: PLANTED,
            validity: 'unknown',
            locations: Array.from({ length: 120 }, (_, index) => ({
              type: 'commit',
              details: { path: 'config/prod.env', start_line: 1, commit_sha: oldCommit, blob_sha: String(index) },
            })),
          },
        },
      },
    },
  });
  // A git that logs its argv, first on PATH: the token must never be in a command line.
  wrapperDir = join(work, 'git-wrapper');
  gitLog = join(work, 'git-argv.log');
  await mkdir(wrapperDir);
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(
    join(wrapperDir, 'git'),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> "$TOLLGATE_TEST_GIT_LOG"\nexec ${realGit} "$@"\n`,
  );
  await chmod(join(wrapperDir, 'git'), 0o755);
});

afterEach(async () => {
  await server.close();
  await fakes?.cleanup();
  fakes = undefined;
  // What a test put in the shared repository's work tree (the skill folders) goes with it.
  await removeDir(join(source.root, '.tollgate'));
  await removeDir(work);
});

const ok = (text: string, writeFiles?: Record<string, string>): FakeReviewStep => ({
  stdout: claudeResult(text),
  exit: 0,
  ...(writeFiles ? { writeFiles } : {}),
});

/** An analysis agent that exits with an error and no report, as soon as it has read (and the fake recorded) its prompt. */
const NO_REPORT: FakeReviewStep = { exit: 1, stderr: 'model unavailable\n' };

const GOOD_SCRIPT =
  '#!/bin/sh\nVALUE=$(git -C repo show HEAD~1:config/prod.env | cut -d= -f2)\ncurl -s -o /dev/null -w "%{http_code}" -H "Authorization: token $VALUE" https://api.github.com/user\n';

async function run(
  routes: Array<{ when: string; steps: FakeReviewStep[] }>,
  extra: Partial<ValidateAlertOptions> = {},
): Promise<{ code: number; stdout: string; alertDir: string }> {
  fakes = await setupFakeAgents(
    { claude: { helpFile: helpFileOf('claude'), authArgs: ['auth', 'status'], routes } },
    source.env,
  );
  let stdout = '';
  const env = {
    ...fakes.env,
    PATH: `${wrapperDir}:${fakes.env.PATH}`,
    TOLLGATE_TEST_GIT_LOG: gitLog,
    GITHUB_TOKEN: CREDENTIAL,
    GITHUB_API_URL: server.url,
  };
  const code = await runValidateAlert({
    target: { kind: 'github', owner: 'octo-org', repo: 'api', alertId: '7' },
    cwd: work,
    env,
    json: true,
    showUsage: true,
    agents: ['claude'],
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    ...extra,
  });
  return { code, stdout, alertDir: join(work, 'analysis', 'octo-org', 'api', '7') };
}

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await allFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

const JUDGE = 'tollgate validate-alert: judge';
const challenge = (index: number, verdict: string, reasoning: string) => ({
  when: `validate-alert: challenge ${index} -->`,
  steps: [
    ok(
      `\`\`\`json\n${JSON.stringify({ verdict, reasoning, evidence_gaps: [], verification_reproduced: verdict === 'CONFIRMED', contradicting_evidence: [] })}\n\`\`\``,
    ),
  ],
});

describe('validate-alert with three competing analyses', () => {
  test('layout, continuation, refuted fabricated evidence, judge retry, exit code, and no secret in clear anywhere', async () => {
    const good = buildReport({ extra: `The committed value ${PLANTED} is live.` });
    const { code, stdout, alertDir } = await run([
      {
        when: JUDGE,
        steps: [
          ok('Report 0 is clearly the best one.'),
          ok(
            JSON.stringify({
              winner_index: 1,
              scores: [
                { index: 1, score: 9, rationale: 'live check' },
                { index: 2, score: 7, rationale: 'ok' },
                { index: 3, score: 2, rationale: 'refuted' },
              ],
            }),
          ),
        ],
      },
      challenge(1, 'CONFIRMED', 'the identity call reproduces'),
      challenge(2, 'CONFIRMED', 'reproduces'),
      challenge(3, 'REFUTED', 'logs/live-check.log does not exist'),
      {
        when: 'analysis 1/3 -->',
        steps: [
          ok(good, {
            'scripts/check-identity.sh': GOOD_SCRIPT,
            'logs/check-identity.log': `200 for ${PLANTED}\n`,
            'report.md': good,
          }),
        ],
      },
      { when: 'analysis 2/3 -->', steps: [ok('Starting the analysis; I will look at the repository.')] },
      {
        when: 'continuation of 2/3',
        steps: [
          ok(buildReport({ score: '7.0/10 (Medium)' }), {
            'scripts/check-identity.sh': GOOD_SCRIPT,
            'logs/check-identity.log': '200\n',
          }),
        ],
      },
      {
        when: 'analysis 3/3 -->',
        steps: [ok(buildReport({ evidence: ['scripts/live-check.sh', 'logs/live-check.log'] }))],
      },
    ]);

    expect(code).toBe(1);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ verdict: 'TRUE_POSITIVE', winner: 1, decidedBy: 'judge', confidenceLabel: 'High' });
    expect(summary.slots.map((slot: { continuations: number }) => slot.continuations)).toEqual([0, 1, 0]);

    // Output layout.
    const top = (await readdir(alertDir)).sort();
    for (const name of [
      '_shared_repo',
      'challenge-1',
      'challenge-1.json',
      'challenge-2.json',
      'challenge-3.json',
      'final-report.md',
      'judge.json',
      'report.html',
      'report-1.md',
      'report-2.md',
      'report-3.md',
    ]) {
      expect(top).toContain(name);
    }
    const workspaces = top.filter((name) => /^[0-9a-f-]{36}$/.test(name));
    expect(workspaces).toHaveLength(3);
    for (const ws of workspaces) {
      const inside = await readdir(join(alertDir, ws));
      for (const name of ['repo', 'scripts', 'logs', 'stream.log', 'report.md', 'diagnostics.json'])
        expect(inside).toContain(name);
      // Full history: the secret's old commit is in every copy.
      execFileSync('git', ['-C', join(alertDir, ws, 'repo'), 'cat-file', '-e', `${oldCommit}^{commit}`], {
        env: source.env,
      });
    }

    // The fabricated report was refuted and failed its evidence eval; the judge's first answer was rejected.
    expect(JSON.parse(await readFile(join(alertDir, 'challenge-3.json'), 'utf8'))).toMatchObject({
      verdict: 'REFUTED',
    });
    const judge = JSON.parse(await readFile(join(alertDir, 'judge.json'), 'utf8'));
    expect(judge.decided_by).toBe('judge');
    expect(judge.problems).toEqual(['judge answer rejected: no JSON object in the answer']);
    expect(judge.evals['3'].checks).toContainEqual(
      expect.objectContaining({ id: 'evidence.referenced-files-exist', passed: false }),
    );
    expect(await readFile(join(alertDir, 'final-report.md'), 'utf8')).toContain(
      `The committed value ${maskSecret(PLANTED)} is live.`,
    );
    // The same outcome as one page: the verdict, the three analyses with the judge's scores, the winning report.
    const page = await readFile(join(alertDir, 'report.html'), 'utf8');
    expect(summary.htmlReport).toBe(join(alertDir, 'report.html'));
    expect(page).toContain('<span class="verdict failed">TRUE_POSITIVE</span>');
    expect(page.match(/<tr class="analysis/g)).toHaveLength(3);
    expect(page).toContain('<tr class="analysis winner" data-index="1">');
    expect(page).toContain("<h2>The judge's reasons</h2>");
    expect(page).toContain(`The committed value ${maskSecret(PLANTED)} is live.`);
    expect(page).toContain('script-src &#39;none&#39;');

    // The too-short answer got a continuation in the same session (Claude: --session-id, then --resume).
    const calls = fakes!.calls().filter((call) => call.call === 'review');
    const slot1 = calls.filter(
      (call) => call.stdin.includes('analysis 2/3 -->') || call.stdin.includes('continuation of 2/3'),
    );
    expect(slot1).toHaveLength(2);
    const sessionId = slot1[0]!.argv[slot1[0]!.argv.indexOf('--session-id') + 1];
    expect(slot1[1]!.argv.slice(-2)).toEqual(['--resume', sessionId]);
    // The judge saw the challenge results, and the analyses ran in their own workspaces without tollgate's token.
    const judgeCall = calls.find((call) => call.stdin.includes(JUDGE))!;
    expect(judgeCall.stdin).toContain('REFUTED: logs/live-check.log does not exist');
    expect(judgeCall.argv).toContain('--json-schema');
    for (const call of calls) expect(call.githubTokenSet).toBeUndefined();
    expect(calls.filter((call) => call.stdin.includes('analysis 1/3 -->'))[0]!.cwd.startsWith(alertDir)).toBe(true);

    // No secret in clear: not in any file under analysis/, not in any git config, not in any git argv.
    const forbidden = [PLANTED, CREDENTIAL, Buffer.from(`x-access-token:${CREDENTIAL}`).toString('base64')];
    for (const file of await allFiles(join(work, 'analysis'))) {
      const bytes = await readFile(file);
      for (const value of forbidden) expect(bytes.includes(value), `${file} contains a secret in clear`).toBe(false);
    }
    const gitArgv = await readFile(gitLog, 'utf8');
    expect(gitArgv).toContain('clone');
    for (const value of forbidden) expect(gitArgv).not.toContain(value);
    // 120 locations in one commit: that commit is looked up and kept by one ref, once, not once per location.
    expect(gitArgv.match(/^update-ref /gm)).toHaveLength(1);
    expect(server.requests.every((request) => request.authorized)).toBe(true);
    // Locations were paged (120 > 100 per page).
    expect(server.requests.filter((request) => request.url.includes('/locations')).length).toBe(2);
  });

  test('a stuck agent ends as timeout, the judge sees it, and a malformed judge twice falls back to the evals', async () => {
    const { code, stdout, alertDir } = await run(
      [
        { when: JUDGE, steps: [ok('{"winner_index": "one"}'), ok('still not JSON')] },
        challenge(2, 'CONFIRMED', 'reproduces'),
        challenge(3, 'CONFIRMED', 'reproduces'),
        { when: 'analysis 1/3 -->', steps: [{ hang: true }] },
        {
          when: 'analysis 2/3 -->',
          steps: [
            ok(buildReport({ verdict: 'FALSE_POSITIVE', score: '8.5/10 (High)', risk: 'None' }), {
              'scripts/check-identity.sh': GOOD_SCRIPT,
              'logs/check-identity.log': '401\n',
            }),
          ],
        },
        {
          when: 'analysis 3/3 -->',
          // Confidence label contradicts the one table (8.5 is High): an error eval fails.
          steps: [
            ok(buildReport({ score: '8.5/10 (Medium)' }), {
              'scripts/check-identity.sh': GOOD_SCRIPT,
              'logs/check-identity.log': '200\n',
            }),
          ],
        },
      ],
      // Analyses 2 and 3 must answer within it while 1 hangs: scaled, as a loaded machine starts the fakes late.
      { timeoutMs: timeBudget(1500) },
    );
    expect(code).toBe(0);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ verdict: 'FALSE_POSITIVE', winner: 2, decidedBy: 'fallback' });
    expect(summary.note).toMatch(
      /^the judge gave no valid answer \(judge answer rejected: winner_index: .*; judge answer rejected: no JSON object in the answer\); report 2 won on the deterministic evals$/,
    );
    expect(summary.slots[0]).toMatchObject({ status: 'timeout', challenge: null });
    const judgeCall = fakes!.calls().find((call) => call.call === 'review' && call.stdin.includes(JUDGE))!;
    expect(judgeCall.stdin).toContain('## Report 1 (claude): NO REPORT');
    // The call gets what is left of the analysis budget, so the seconds it names depend on the machine's speed.
    expect(judgeCall.stdin).toMatch(/timeout: claude did not answer within \d+ s and was stopped/);
    expect(JSON.parse(await readFile(join(alertDir, 'challenge-1.json'), 'utf8'))).toMatchObject({ status: 'skipped' });
  });

  test('a refuted FALSE_POSITIVE picked over a confirmed TRUE_POSITIVE is not a silent pass: INCONCLUSIVE, named', async () => {
    const { code, stdout, alertDir } = await run(
      [
        {
          when: JUDGE,
          steps: [
            ok(
              JSON.stringify({
                winner_index: 1,
                scores: [
                  { index: 1, score: 8, rationale: 'well written' },
                  { index: 2, score: 6, rationale: 'terse' },
                ],
              }),
            ),
          ],
        },
        challenge(1, 'REFUTED', 'the cited 401 log was written by hand'),
        challenge(2, 'CONFIRMED', 'the identity call reproduces: 200'),
        {
          when: 'analysis 1/2 -->',
          steps: [
            ok(buildReport({ verdict: 'FALSE_POSITIVE', score: '8.5/10 (High)', risk: 'None' }), {
              'scripts/check-identity.sh': GOOD_SCRIPT,
              'logs/check-identity.log': '401\n',
            }),
          ],
        },
        {
          when: 'analysis 2/2 -->',
          steps: [
            ok(buildReport({ score: '8.5/10 (High)' }), {
              'scripts/check-identity.sh': GOOD_SCRIPT,
              'logs/check-identity.log': '200\n',
            }),
          ],
        },
      ],
      { analyses: 2 },
    );
    expect(code).toBe(4);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ verdict: 'INCONCLUSIVE', winner: 1, decidedBy: 'judge' });
    // The refuted pick's confidence and finding are not the INCONCLUSIVE verdict's: the disagreement is shown instead.
    expect(summary).toMatchObject({ confidence: null, confidenceLabel: null, keyFinding: null, riskLevel: null });
    expect(summary.disagreement).toEqual([
      { report: 1, agent: expect.any(String), verdict: 'FALSE_POSITIVE', confidence: 8.5, challenge: 'REFUTED' },
      { report: 2, agent: expect.any(String), verdict: 'TRUE_POSITIVE', confidence: 8.5, challenge: 'CONFIRMED' },
    ]);
    expect(summary.contested).toBe(
      'report 1 (FALSE_POSITIVE) won although its challenge was REFUTED, while report 2 (TRUE_POSITIVE) was CONFIRMED: the verdict is INCONCLUSIVE until a person reads both',
    );
    const judge = JSON.parse(await readFile(join(alertDir, 'judge.json'), 'utf8'));
    expect(judge.contested).toBe(summary.contested);
    expect(await readFile(join(alertDir, 'report.html'), 'utf8')).toContain('Contested: report 1 (FALSE_POSITIVE)');
  });

  test('no analysis produces a report: INCONCLUSIVE, with its own exit code (not 3, which is an internal error)', async () => {
    const { code, stdout } = await run([{ when: 'analysis 1/1 -->', steps: [{ hang: true }] }], {
      analyses: 1,
      timeoutMs: 800,
    });
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'INCONCLUSIVE', winner: null });
    expect(code).toBe(4);
  });

  test('a project skill folder (<dir>/SKILL.md) reaches the analyses: listed in the prompt, copied into the workspace', async () => {
    const skillDir = join(source.root, '.tollgate', 'skills', 'analysis', 'cloud-keys');
    await mkdir(join(skillDir, 'scripts'), { recursive: true });
    await writeFile(
      join(skillDir, 'SKILL.md'),
      '---\ndescription: "Cloud keys: check them with the read-only identity call."\nrequired: true\n---\nUse scripts/whoami.sh.\n',
    );
    await writeFile(join(skillDir, 'scripts', 'whoami.sh'), '#!/bin/sh\necho whoami\n');
    await writeFile(
      join(source.root, '.tollgate', 'skills', 'analysis', 'broken.md'),
      '---\ndescription: a: b\n---\nx\n',
    );
    // The repository's own definition of the analysis role: its model, turn cap and instructions reach the call.
    await mkdir(join(source.root, '.tollgate', 'agents'));
    await writeFile(
      join(source.root, '.tollgate', 'agents', 'analysis.md'),
      '---\nmodel: { claude: claude-opus-4-5 }\nmaxTurns: 7\n---\nOur own rule: GitHub tokens are checked with GET /user only.\n',
    );
    let stderr = '';
    // The agent fails at once, after the prompt is recorded: no wall-clock timeout that a busy machine could hit first.
    const { stdout, alertDir } = await run([{ when: 'analysis 1/1 -->', steps: [NO_REPORT] }], {
      analyses: 1,
      timeoutMs: 60_000,
      cwd: source.root,
      outDir: join(work, 'analysis'),
      stderr: (text) => {
        stderr += text;
      },
    });
    const call = fakes!.calls().find((entry) => entry.stdin.includes('analysis 1/1 -->'))!;
    expect(call.stdin).toContain(
      '- `skills/cloud-keys/SKILL.md` (required): Cloud keys: check them with the read-only identity call.',
    );
    expect(call.stdin).toContain('- `skills/alert-context/SKILL.md` (required):');
    expect(call.stdin).toContain(
      'You are analysis 1 of 1 competing analyses of one secret-scanning alert.\nOur own rule: GitHub tokens are checked with GET /user only.',
    );
    expect(call.argv.join(' ')).toContain('--max-turns 7');
    expect(call.argv.join(' ')).toContain('--model claude-opus-4-5');
    const workspace = (await readdir(alertDir)).find((name) => /^[0-9a-f-]{36}$/.test(name))!;
    expect(await readFile(join(alertDir, workspace, 'skills', 'cloud-keys', 'scripts', 'whoami.sh'), 'utf8')).toContain(
      'whoami',
    );
    expect(stderr).toMatch(/warning: skill .*broken\.md: front matter is not valid YAML/);
    // Progress on stderr: the stages, and each analysis with its agent, state and elapsed time.
    expect(stderr).toMatch(/^tollgate: analyses: 1 competing, on claude \[\d+s\]$/m);
    expect(stderr).toMatch(/^tollgate: analysis 1\/1 \(claude\): running \[\d+s\]$/m);
    expect(stderr).toMatch(/^tollgate: analysis 1\/1 \(claude\): failed after \d+s \[\d+s\]$/m);
    expect(stderr).toMatch(/^tollgate: done: INCONCLUSIVE \[\d+s\]$/m);
    expect(JSON.parse(stdout).notes.join('\n')).toMatch(/broken\.md: front matter is not valid YAML/);
  });

  test("--verify asks the secret's provider first and hands the answer to the analyses as evidence", async () => {
    const ca = makeTestCa();
    const provider = await startFakeProvider(ca, (req) =>
      req.path === '/user' && req.headers.authorization === `Bearer ${PLANTED}` ? { status: 200 } : { status: 401 },
    );
    try {
      const { stdout } = await run([{ when: 'analysis 1/1 -->', steps: [NO_REPORT] }], {
        analyses: 1,
        timeoutMs: 60_000,
        verify: true,
        verifyTransport: { ca: ca.ca, hostOverrides: { github: provider.base } },
      });
      expect(provider.seen).toHaveLength(1);
      expect(provider.seen[0]).toMatchObject({ method: 'GET', path: '/user' });
      const prompt = fakes!.calls().find((call) => JSON.stringify(call).includes('analysis 1/1 -->'));
      expect(JSON.stringify(prompt)).toContain('the credential is LIVE');
      expect(JSON.stringify(prompt)).not.toContain(PLANTED);
      expect(JSON.parse(stdout).verification).toMatchObject({ status: 'live', provider: 'github' });
    } finally {
      await provider.close();
      removeTestCa(ca);
    }
  });
});
