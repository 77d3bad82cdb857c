import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inShard } from '../../src/integrations/alerts/sweep/shard.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { type FakeAgents, helpFileOf, setupFakeAgents } from '../fakes/fake-agents.js';
import { type FakeAlert, type FakeGithubRest, startFakeGithubRest } from '../fakes/github-rest/server.js';
import { buildReport, claudeResult } from '../support/build-report.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * The alert sweep through the built CLI: 12 open alerts over 4 repositories behind the fake GitHub REST server (the
 * listing paged by Link headers, 10 a page), decided by the fake `claude`, in 4 concurrent shard processes, then merged; the
 * same 12 in one process; a shard killed mid-way and rerun; a sweep stopped by SIGTERM; duplicates across shard folders
 * refused. These 12 put several alerts in every shard (3, 4, 2 and 3: the repositories are named for it) and span two
 * pages; each alert decided costs two clones and two agent processes (about a second of CPU), so more alerts only make
 * the file slower: 20 cost 15 s more.
 */
const REPOS = ['acme/api', 'acme/web', 'acme/mobile', 'acme/data'];
const PER_REPO = 3;
const ALERTS = REPOS.length * PER_REPO;
/** Alerts per shard of 4, in order (shardOfAlert of these repositories and numbers). */
const SHARD_SIZES = [3, 4, 2, 3];
const TOKEN = fakeChecksumToken('ghp_', 'sweep-api-credential');
const VERDICT_OF: Record<string, string> = {
  'acme/api': 'TRUE_POSITIVE',
  'acme/web': 'FALSE_POSITIVE',
  'acme/mobile': 'TRUE_POSITIVE',
  'acme/data': 'INCONCLUSIVE',
};

let work: string;
let source: TempRepo;
let server: FakeGithubRest;
let fakes: FakeAgents;
let env: NodeJS.ProcessEnv;
const planted = new Map<string, string>();

beforeAll(async () => {
  work = await tempDir('tollgate-sweep-');
  source = await createTempRepo({ files: { 'README.md': '# sources\n' } });
  const repos: Record<string, { clone_url: string; alerts: Record<number, FakeAlert> }> = {};
  for (const name of REPOS) {
    const secret = fakeChecksumToken('ghp_', `sweep-planted-${name}`);
    planted.set(name, secret);
    await source.write('config/prod.env', `GITHUB_TOKEN=${secret}\n`);
    const commit = await source.commit(`${name}: config`);
    const bare = join(work, `${name.replace('/', '-')}.git`);
    await source.git('clone', '--quiet', '--bare', source.root, bare);
    const alerts: Record<number, FakeAlert> = {};
    for (let number = 1; number <= PER_REPO; number++) {
      alerts[number] = {
        number,
        state: 'open',
        secret_type: 'github_personal_access_token',
        secret,
        validity: 'unknown',
        updated_at: '2026-11-20T10:00:00Z',
        locations: [{ type: 'commit', details: { path: 'config/prod.env', start_line: 1, commit_sha: commit } }],
      };
    }
    // One closed alert per repository: the sweep takes open ones only.
    alerts[PER_REPO + 1] = { ...alerts[1]!, number: PER_REPO + 1, state: 'resolved' };
    repos[name] = { clone_url: `file://${bare}`, alerts };
  }
  server = await startFakeGithubRest({ token: TOKEN, repos, maxPerPage: 10 });
  const analysis = (name: string) => ({
    when: `${name}`,
    steps: [
      {
        exit: 0,
        stdout: claudeResult(buildReport({ repository: name, verdict: VERDICT_OF[name]!, score: '8.0/10 (High)' })),
        writeFiles: { 'scripts/check-identity.sh': '#!/bin/sh\necho ok\n', 'logs/check-identity.log': 'HTTP 401\n' },
      },
    ],
  });
  const confirmed = JSON.stringify({
    verdict: 'CONFIRMED',
    reasoning: 'reproduces',
    evidence_gaps: [],
    verification_reproduced: true,
    contradicting_evidence: [],
  });
  fakes = await setupFakeAgents(
    {
      claude: {
        helpFile: helpFileOf('claude'),
        authArgs: ['auth', 'status'],
        routes: [
          {
            when: 'tollgate validate-alert: challenge',
            steps: [{ exit: 0, stdout: claudeResult(`\`\`\`json\n${confirmed}\n\`\`\``) }],
          },
          ...REPOS.map(analysis),
        ],
      },
    },
    source.env,
  );
  env = { ...fakes.env, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: server.url };
}, 120_000);

afterAll(async () => {
  await server?.close();
  await fakes?.cleanup();
  await source?.cleanup();
  if (work) await removeDir(work);
});

const sweepArgs = (shard: string, out: string, extra: string[] = []) => [
  'validate-alert',
  '--org',
  'acme',
  '--open',
  '--shard',
  shard,
  '--out',
  out,
  '--analyses',
  '1',
  '--agent',
  'claude',
  '--json',
  ...extra,
];

function doneCount(out: string): number {
  if (!existsSync(out)) return 0;
  try {
    return (readdirSync(out, { recursive: true }) as string[]).filter((path) => path.endsWith('done.json')).length;
  } catch {
    // The running sweep removes repository copies while we walk: a folder can vanish mid-walk. Look again.
    return doneCount(out);
  }
}

function analysisCalls(): number {
  return fakes.calls().filter((call) => JSON.stringify(call).includes('analysis 1/1 -->')).length;
}

async function merge(dirs: string[], extra: string[] = []) {
  return runCli(['alerts', 'merge', ...dirs, '--format', 'json', ...extra], { cwd: work, env, timeoutMs: 60_000 });
}

describe('alert sweep over 12 open alerts in 4 shards', () => {
  test('4 concurrent shards merge to the single-process result, every alert once, no token anywhere', async () => {
    const shards = await Promise.all(
      [1, 2, 3, 4].map((index) =>
        runCli(sweepArgs(`${index}/4`, join(work, `shard-${index}`)), { cwd: work, env, timeoutMs: 240_000 }),
      ),
    );
    for (const shard of shards) expect(shard.exitCode, shard.stderr).toBe(0);
    const perShard = shards.map((shard) => JSON.parse(shard.stdout));
    expect(perShard.map((summary) => summary.listed)).toEqual([ALERTS, ALERTS, ALERTS, ALERTS]);
    expect(perShard.map((summary) => summary.inShard)).toEqual(SHARD_SIZES);
    // The listing spans pages: a second page, after the cursor the first one ended on.
    expect(
      server.requests.some((request) => /^\/orgs\/acme\/secret-scanning\/alerts\?.*after=[^&]/.test(request.url)),
    ).toBe(true);

    const single = await runCli(sweepArgs('1/1', join(work, 'single'), ['--concurrency', '4']), {
      cwd: work,
      env,
      timeoutMs: 240_000,
    });
    expect(single.exitCode, single.stderr).toBe(0);

    const merged = await merge(
      [1, 2, 3, 4].map((index) => join(work, `shard-${index}`)),
      ['--out-dir', join(work, 'summary')],
    );
    expect(merged.exitCode, merged.stderr).toBe(0);
    const alone = await merge([join(work, 'single')]);
    const shardResults = JSON.parse(merged.stdout).results;
    expect(shardResults).toHaveLength(ALERTS);
    expect(new Set(shardResults.map((r: { repo: string; number: number }) => `${r.repo}#${r.number}`)).size).toBe(
      ALERTS,
    );
    expect(shardResults).toEqual(JSON.parse(alone.stdout).results);
    expect(JSON.parse(merged.stdout).totals).toEqual({
      TRUE_POSITIVE: 2 * PER_REPO,
      FALSE_POSITIVE: PER_REPO,
      INCONCLUSIVE: PER_REPO,
    });
    expect(shardResults[0]).toMatchObject({ secretType: 'github_personal_access_token', winner: { agent: 'claude' } });
    expect(readFileSync(join(work, 'summary', 'summary.md'), 'utf8')).toContain('| acme/web#1 |');
    expect(readFileSync(join(work, 'summary', 'summary.html'), 'utf8')).toContain(`data-decided="${ALERTS}"`);

    // Never the API token, never a planted secret in clear, in any file or output.
    const outputs = [...shards, single, merged].flatMap((run) => [run.stdout, run.stderr]);
    for (const dir of ['shard-1', 'shard-2', 'shard-3', 'shard-4', 'single', 'summary']) {
      for (const path of readdirSync(join(work, dir), { recursive: true }) as string[]) {
        const full = join(work, dir, path);
        if (!existsSync(full) || !full.match(/\.(json|md|html|log|sh|txt)$/)) continue;
        outputs.push(readFileSync(full, 'utf8'));
      }
    }
    for (const text of outputs) {
      expect(text).not.toContain(TOKEN);
      for (const secret of planted.values()) expect(text).not.toContain(secret);
    }
    expect(server.requests.every((request) => request.authorized)).toBe(true);
  }, 300_000);

  test('a shard killed mid-way finishes only what was left when rerun; a rerun of a finished shard does nothing', async () => {
    const out = join(work, 'killed');
    const mine = REPOS.flatMap((repo) =>
      Array.from({ length: PER_REPO }, (_, i) => i + 1).filter((number) =>
        inShard(repo, number, { index: 2, count: 4 }),
      ),
    ).length;
    // Shard 2 holds 4 alerts, decided one at a time (the default --concurrency 1): killed after 2, some are left.
    expect(mine).toBe(SHARD_SIZES[1]);
    const child = spawn(process.execPath, [CLI_PATH, ...sweepArgs('2/4', out)], {
      cwd: work,
      env,
      detached: true,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    while (doneCount(out) < 2) await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(-child.pid!, 'SIGKILL');
    await exited;
    const done = doneCount(out);
    expect(done).toBeLessThan(mine);

    const before = analysisCalls();
    const rerun = await runCli(sweepArgs('2/4', out), { cwd: work, env, timeoutMs: 240_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ inShard: mine, alreadyDone: done, decided: mine - done });
    expect(analysisCalls() - before).toBe(mine - done);

    const again = await runCli(sweepArgs('2/4', out), { cwd: work, env, timeoutMs: 60_000 });
    expect(JSON.parse(again.stdout)).toMatchObject({ alreadyDone: mine, decided: 0 });
    expect(analysisCalls() - before).toBe(mine - done);

    const rerunResults = JSON.parse((await merge([out])).stdout).results;
    expect(rerunResults).toEqual(JSON.parse((await merge([join(work, 'shard-2')])).stdout).results);
  }, 300_000);

  test('a sweep stopped by SIGTERM leaves no repository clone in --out (the workflow uploads --out)', async () => {
    const out = join(work, 'terminated');
    // Shard 4 holds 3 alerts: stopped once the first is decided, two are left (a clone is in --out meanwhile).
    const child = spawn(process.execPath, [CLI_PATH, ...sweepArgs('4/4', out)], { cwd: work, env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while (doneCount(out) < 1) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    // Agents killed with the sweep may still be exiting: give the file system a moment, then look.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const clones = (readdirSync(out, { recursive: true }) as string[]).filter((path) =>
      /(^|\/)(repo|_shared_repo)$/.test(path),
    );
    expect(clones).toEqual([]);
  }, 120_000);

  test('an alert in two shard folders is an error naming it; a bad folder is one line', async () => {
    const duplicate = await merge([join(work, 'shard-2'), join(work, 'killed')]);
    expect(duplicate.exitCode).toBe(2);
    expect(duplicate.stderr.trim()).toMatch(/^tollgate: alerts merge: alert acme\/\w+#\d+ is in two shard folders/);
    const missing = await merge([join(work, 'nowhere')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const bad = await runCli(['validate-alert', '--org', 'acme', '--open', '--shard', '0/4'], { cwd: work, env });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--shard: expected I/N');
    expect(relative(work, join(work, 'shard-1'))).toBe('shard-1');
  }, 60_000);
});
