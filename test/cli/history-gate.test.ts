import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { cloneRepo, createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * The change is every commit since the base, and the base is pinned: regression tests through the
 * built CLI, on real repositories. Each case passed before (exit 0, the stop hook allowed).
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const CONFIG = 'validation:\n  static_analysis: { enabled: false }\n  code_review: { enabled: false }\n';
const token = (seed: string) => fakeChecksumToken('ghp_', `history-gate-${seed}`);

async function repoWithConfig(): Promise<TempRepo> {
  const repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'README.md': '# app\n' } });
  cleanups.push(() => repo.cleanup());
  return repo;
}

/** A clone of `origin` (its `origin/main` written by `git clone`), sharing origin's private HOME. */
async function cloneOf(origin: TempRepo): Promise<TempRepo> {
  const copy = await cloneRepo(origin);
  cleanups.push(() => copy.cleanup());
  return copy;
}

interface JsonReport {
  verdict: string;
  base: { ref: string | null; commit: string | null; source: string; pinned?: { unvalidated: number } };
  files: Array<{ path: string }>;
  tools: Array<{ name: string; status: string; summary: string; details?: { history?: HistoryDetails } }>;
}
interface HistoryDetails {
  commits: number;
  scanned: number;
  cached: number;
  secrets: Array<{ path: string; commits: string[] }>;
}

async function run(repo: TempRepo) {
  const result = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
  const report = JSON.parse(result.stdout) as JsonReport;
  const secrets = report.tools.find((tool) => tool.name === 'secrets')!;
  return { exitCode: result.exitCode, report, secrets, stdout: result.stdout };
}

async function stopDecision(repo: TempRepo): Promise<string> {
  const payload = readFileSync(new URL('../fixtures/hooks/claude/stop.json', import.meta.url), 'utf8').replaceAll(
    '__REPO__',
    repo.root,
  );
  const stop = await runCli(['hook', 'stop', '--agent', 'claude'], { cwd: repo.root, env: repo.env, input: payload });
  // Claude Code reads an empty answer (or one without a decision) as "may stop".
  if (stop.stdout.trim() === '') return 'allow';
  return (JSON.parse(stop.stdout) as { decision?: string }).decision ?? 'allow';
}

/** Commits a file with a secret, then a commit that deletes it: the tree ends as it began. */
async function addAndRemoveSecret(repo: TempRepo, seed: string): Promise<string> {
  await repo.write('src/settings.py', `TOKEN = "${token(seed)}"\n`);
  const added = await repo.commit('add settings');
  await repo.git('rm', '--quiet', 'src/settings.py');
  await repo.commit('remove settings');
  return added;
}

describe('secrets in any commit since the base', () => {
  test('a key committed then deleted fails the run and blocks the stop hook; rewriting it out passes', async () => {
    const repo = await repoWithConfig();
    await repo.git('checkout', '--quiet', '-b', 'feature');
    await repo.write('src/app.py', 'print("hi")\n');
    await repo.commit('app');
    const added = await addAndRemoveSecret(repo, 'a');
    const failed = await run(repo);
    expect(failed.exitCode).toBe(1);
    expect(failed.secrets.status).toBe('failed');
    expect(failed.secrets.summary).toContain(`in commit ${added.slice(0, 12)}`);
    expect(failed.stdout).toContain('git rebase -i');
    expect(failed.stdout).toContain('git reset --soft');
    expect(failed.stdout).not.toContain(token('a'));
    expect(await stopDecision(repo)).toBe('block');

    await repo.git('reset', '--quiet', '--soft', 'main');
    await repo.commit('app, without the secret');
    const passed = await run(repo);
    expect(passed.exitCode).toBe(0);
    expect(passed.secrets.details?.history).toMatchObject({ commits: 1, secrets: [] });
    expect(await stopDecision(repo)).toBe('allow');
  }, 120_000);

  test('an evil merge: a key only the merge commit wrote, deleted after, fails the run at the merge', async () => {
    const repo = await repoWithConfig();
    await repo.git('checkout', '--quiet', '-b', 'feature');
    await repo.git('checkout', '--quiet', '-b', 'side');
    await repo.write('src/side.py', 'SIDE = 1\n');
    await repo.commit('side');
    await repo.git('checkout', '--quiet', 'feature');
    await repo.write('src/app.py', 'print("hi")\n');
    await repo.commit('app');
    await repo.git('merge', '--quiet', '--no-commit', '--no-ff', 'side');
    await repo.write('src/side.py', `SIDE = 1\nTOKEN = "${token('evil')}"\n`);
    const merge = await repo.commit('merge side, with a line of its own');
    await repo.write('src/side.py', 'SIDE = 1\n');
    await repo.commit('remove it');
    const failed = await run(repo);
    expect(failed.exitCode).toBe(1);
    expect(failed.secrets.summary).toContain(`in commit ${merge.slice(0, 12)}`);
    expect(failed.stdout).not.toContain(token('evil'));
  }, 120_000);

  test('a pass is not reused for another history with the same tree', async () => {
    const repo = await repoWithConfig();
    await repo.git('checkout', '--quiet', '-b', 'feature');
    await repo.write('src/app.py', 'print("hi")\n');
    await repo.commit('app');
    expect((await run(repo)).exitCode).toBe(0);
    expect(await stopDecision(repo)).toBe('allow');
    // Same final tree, so the same fingerprint; but a secret passed through the new history.
    await repo.git('reset', '--quiet', '--hard', 'main');
    await addAndRemoveSecret(repo, 'e');
    await repo.write('src/app.py', 'print("hi")\n');
    await repo.commit('app again');
    expect(await stopDecision(repo)).toBe('block');
    const again = await run(repo);
    expect(again.exitCode).toBe(1);
    expect(again.secrets.status).toBe('failed');
  }, 120_000);

  test('each commit is scanned once: a later run scans only the new commits', async () => {
    const repo = await repoWithConfig();
    await repo.git('checkout', '--quiet', '-b', 'feature');
    for (const n of [1, 2, 3]) {
      await repo.write(`src/m${n}.py`, `N = ${n}\n`);
      await repo.commit(`m${n}`);
    }
    const first = await run(repo);
    expect(first.exitCode).toBe(0);
    expect(first.secrets.details?.history).toMatchObject({ commits: 3, scanned: 3, cached: 0 });
    await repo.write('src/m4.py', 'N = 4\n');
    await repo.commit('m4');
    const second = await run(repo);
    expect(second.exitCode).toBe(0);
    expect(second.secrets.details?.history).toMatchObject({ commits: 4, scanned: 1, cached: 3 });
  }, 120_000);
});

describe('the GitHub Action', () => {
  test('`command: run` fails on a secret in any commit of the pull request', async () => {
    const repo = await repoWithConfig();
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.git('checkout', '--quiet', '-b', 'feature');
    await addAndRemoveSecret(repo, 'd');
    const runner = join(repo.home, 'runner');
    await mkdir(runner, { recursive: true });
    const env = {
      ...repo.env,
      TOLLGATE_COMMAND: 'run',
      TOLLGATE_BASE: base,
      GITHUB_WORKSPACE: repo.root,
      GITHUB_OUTPUT: join(runner, 'output'),
      GITHUB_STEP_SUMMARY: join(runner, 'summary.md'),
      RUNNER_TEMP: runner,
    };
    const step = await runCli(['action-step'], { cwd: repo.root, env });
    expect(step.exitCode).toBe(1);
    const summary = readFileSync(join(runner, 'summary.md'), 'utf8');
    expect(summary).toContain('in a commit since the base');
    expect(summary).not.toContain(token('d'));
    expect(readFileSync(join(runner, 'output'), 'utf8')).toContain('failed');
  }, 120_000);
});

describe('the base is pinned', () => {
  test('moving origin/main onto the branch with update-ref does not empty the change', async () => {
    const origin = await repoWithConfig();
    const clone = await cloneOf(origin);
    await addAndRemoveSecret(clone, 'b');
    await clone.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    const result = await run(clone);
    expect(result.exitCode).toBe(1);
    expect(result.report.base.source).toBe('pinned');
    expect(result.secrets.status).toBe('failed');
    expect(await stopDecision(clone)).toBe('block');
  }, 120_000);

  test('nor does moving it 121 times: what the clone left is found however deep in the reflog', async () => {
    const origin = await repoWithConfig();
    const clone = await cloneOf(origin);
    await addAndRemoveSecret(clone, 'e');
    const head = (await clone.git('rev-parse', 'HEAD')).trim();
    const fetched = (await clone.git('rev-parse', 'refs/remotes/origin/main')).trim();
    // 120 moves, back and forth: what the clone left is then 120 reflog entries down. One `update-ref --stdin`, each
    // move a transaction of its own (a reflog entry each, as 120 `git update-ref` calls write), not 120 git processes.
    const moves = Array.from({ length: 120 }, (_, move) => (move % 2 === 0 ? head : fetched))
      .map((commit) => `start\nupdate refs/remotes/origin/main ${commit}\ncommit\n`)
      .join('');
    const moved = await runProcess('git', ['update-ref', '--stdin'], {
      cwd: clone.root,
      env: clone.env,
      input: moves,
    });
    expect(moved.exitCode, moved.stderr).toBe(0);
    const reflog = await clone.git('reflog', 'show', '--format=%H', 'refs/remotes/origin/main');
    // One reflog entry per move, as 120 `git update-ref` calls leave (git clone itself writes none for this ref).
    expect(reflog.trim().split('\n')).toHaveLength(120);
    await clone.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    const result = await run(clone);
    expect(result.exitCode).toBe(1);
    expect(result.report.base.commit).toBe(fetched);
    expect(result.secrets.status).toBe('failed');
    expect(await stopDecision(clone)).toBe('block');
  }, 120_000);

  test('on main with no upstream, the commits since the last passing run are the change', async () => {
    const repo = await repoWithConfig();
    expect((await run(repo)).exitCode).toBe(0);
    await repo.write('src/new.py', 'N = 1\n');
    await repo.commit('new');
    const clean = await run(repo);
    expect(clean.exitCode).toBe(0);
    expect(clean.report.base.source).toBe('pinned');
    expect(clean.report.files.map((file) => file.path)).toEqual(['src/new.py']);
    // That pass validated HEAD: with nothing new, nothing is left to validate.
    expect((await run(repo)).report.files).toEqual([]);

    await addAndRemoveSecret(repo, 'c');
    const failed = await run(repo);
    expect(failed.exitCode).toBe(1);
    expect(failed.report.base.pinned?.unvalidated).toBe(2);
    expect(await stopDecision(repo)).toBe('block');
  }, 120_000);

  test('a fetched upstream moves the base with the next passing run: a fetch alone is no proof', async () => {
    const origin = await repoWithConfig();
    const clone = await cloneOf(origin);
    await clone.git('checkout', '--quiet', '-b', 'feature', '--track', 'origin/main');
    await clone.write('src/mine.py', 'MINE = 1\n');
    await clone.commit('mine');
    expect((await run(clone)).exitCode).toBe(0);
    await origin.write('src/theirs.py', 'THEIRS = 1\n');
    await origin.commit('theirs');
    await clone.git('fetch', '--quiet');
    await clone.git('merge', '--quiet', '--no-edit', 'origin/main');
    // Locally nothing tells a real fetch from one the agent staged, so the merged work is validated once, as part of
    // the change since the last passing run.
    const merged = await run(clone);
    expect(merged.exitCode).toBe(0);
    expect(merged.report.base.source).toBe('pinned');
    expect(merged.report.files.map((file) => file.path)).toEqual(['src/theirs.py']);
    // That pass validated HEAD, which holds the upstream: the base is the upstream again.
    const result = await run(clone);
    expect(result.exitCode).toBe(0);
    expect(result.report.base.source).toBe('upstream');
    expect(result.report.files.map((file) => file.path)).toEqual(['src/mine.py']);
  }, 120_000);
});
