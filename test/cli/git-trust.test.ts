import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { cloneRepo, createTempRepo, removeDir, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * What git can be told to show is not the agent's to choose: a base moved by a fetch from the repository itself or by
 * a reflog line that says "fetch", a replacement of the base commit, and grafts that hide the commits since the base
 * each let a change with a live-format key pass before. Through the built CLI, on real repositories: the run fails and
 * the stop hook blocks on that key, or the run is incomplete and says why in one line.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const CONFIG = 'validation:\n  static_analysis: { enabled: false }\n  code_review: { enabled: false }\n';
const token = (seed: string) => fakeChecksumToken('ghp_', `git-trust-${seed}`);

interface JsonReport {
  verdict: string;
  base: { commit: string | null; source: string };
  tools: Array<{ name: string; status: string; summary: string; findings: Array<{ ruleId?: string; path?: string }> }>;
}

/** A clone of a repository with a config, its `origin/main` written by `git clone` (no reflog entry of its own). */
async function clone(): Promise<TempRepo> {
  const origin = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'README.md': '# app\n' } });
  cleanups.push(() => origin.cleanup());
  const copy = await cloneRepo(origin);
  cleanups.push(() => copy.cleanup());
  return copy;
}

async function run(repo: TempRepo) {
  const result = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
  const report = JSON.parse(result.stdout) as JsonReport;
  return { exitCode: result.exitCode, report, secrets: report.tools.find((tool) => tool.name === 'secrets')! };
}

async function stop(repo: TempRepo): Promise<{ decision: string; reason: string }> {
  const payload = readFileSync(new URL('../fixtures/hooks/claude/stop.json', import.meta.url), 'utf8').replaceAll(
    '__REPO__',
    repo.root,
  );
  const answer = await runCli(['hook', 'stop', '--agent', 'claude'], { cwd: repo.root, env: repo.env, input: payload });
  if (answer.stdout.trim() === '') return { decision: 'allow', reason: '' };
  const parsed = JSON.parse(answer.stdout) as { decision?: string; reason?: string };
  return { decision: parsed.decision ?? 'allow', reason: parsed.reason ?? '' };
}

/** The run failed on the key in `path`, masked, and the stop hook blocked naming the secrets validator. */
async function expectBlockedOnSecret(repo: TempRepo, path: string, seed: string) {
  const result = await run(repo);
  expect(result.exitCode).toBe(1);
  expect(result.secrets.status).toBe('failed');
  expect(result.secrets.findings.map((finding) => [finding.ruleId, finding.path])).toContainEqual(['github-pat', path]);
  expect(JSON.stringify(result.report)).not.toContain(token(seed));
  const answer = await stop(repo);
  expect(answer.decision).toBe('block');
  expect(answer.reason).toContain(`${path}:1`);
  expect(answer.reason).toContain('(github-pat)');
  expect(answer.reason).not.toContain(token(seed));
  return result;
}

describe('a base moves only for a reason the change cannot write', () => {
  test.each([
    ['a fetch from the repository itself', ['fetch', '--quiet', '.', 'HEAD:refs/remotes/origin/main']],
    [
      'a reflog entry that says "fetch"',
      ['update-ref', '-m', 'fetch: fast-forward', 'refs/remotes/origin/main', 'HEAD'],
    ],
  ])(
    '%s does not make the agent’s commit the base',
    async (_name, move) => {
      const repo = await clone();
      const cloned = (await repo.git('rev-parse', 'origin/main')).trim();
      await repo.write('src/settings.py', `TOKEN = "${token('moved')}"\n`);
      await repo.commit('settings');
      await repo.git(...move);
      const result = await expectBlockedOnSecret(repo, 'src/settings.py', 'moved');
      expect(result.report.base).toMatchObject({ commit: cloned, source: 'pinned' });
    },
    120_000,
  );
});

describe("git's object view is not the repository's to choose", () => {
  test('a replacement of the base commit whose tree already holds the key', async () => {
    const repo = await clone();
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('src/settings.py', `TOKEN = "${token('replace')}"\n`);
    await repo.git('add', '-A');
    const tree = (await repo.git('write-tree')).trim();
    const standIn = (await repo.git('commit-tree', tree, '-p', base, '-m', 'stand-in')).trim();
    await repo.git('replace', base, standIn);
    await repo.git('config', 'core.useReplaceRefs', 'true');
    await expectBlockedOnSecret(repo, 'src/settings.py', 'replace');
  }, 120_000);

  test('a replacement of the base commit whose config switches secret scanning off', async () => {
    const repo = await clone();
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('tollgate.config.yaml', `${CONFIG}  secrets: { enabled: false }\n`);
    await repo.git('add', '-A');
    const standIn = (await repo.git('commit-tree', (await repo.git('write-tree')).trim(), '-m', 'stand-in')).trim();
    await repo.git('replace', base, standIn);
    await repo.git('checkout', '--quiet', 'tollgate.config.yaml');
    await repo.write('src/settings.py', `TOKEN = "${token('policy')}"\n`);
    await repo.commit('settings');
    await expectBlockedOnSecret(repo, 'src/settings.py', 'policy');
  }, 120_000);

  test('grafts that make the base the parent of HEAD do not hide a key committed and deleted since', async () => {
    const repo = await clone();
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('src/settings.py', `TOKEN = "${token('graft')}"\n`);
    await repo.commit('settings');
    await repo.git('rm', '--quiet', 'src/settings.py');
    const head = await repo.commit('remove settings');
    await repo.write('.git/info/grafts', `${head} ${base}\n`);
    const result = await run(repo);
    expect(result.exitCode).toBe(1);
    expect(result.secrets.status).toBe('failed');
    expect(result.secrets.summary).toContain('in commits since the base');
    expect(JSON.stringify(result.report)).not.toContain(token('graft'));
    expect((await stop(repo)).decision).toBe('block');
  }, 120_000);

  test('a shallow list cut above the base makes the run incomplete, in one line that says what to run', async () => {
    const repo = await clone();
    await repo.git('checkout', '--quiet', '-b', 'feature');
    await repo.write('src/settings.py', `TOKEN = "${token('shallow')}"\n`);
    const added = await repo.commit('settings');
    await repo.git('rm', '--quiet', 'src/settings.py');
    await repo.commit('remove settings');
    await repo.write('.git/shallow', `${added}\n`);
    const result = await run(repo);
    expect(result.exitCode).not.toBe(0);
    expect(result.report.verdict).not.toBe('passed');
    const reasons = result.report.tools.filter((tool) => tool.status === 'incomplete').map((tool) => tool.summary);
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons[0]).toContain('git fetch --unshallow');
    expect(reasons[0]).not.toContain('\n');
    expect((await stop(repo)).decision).toBe('block');
  }, 120_000);
});

describe("git's work tree is the folder holding .git", () => {
  test('core.worktree pointing at a clean copy: the run refuses in one line and the stop hook blocks, never fails open', async () => {
    const repo = await clone();
    const copy = `${repo.root}-copy`;
    cleanups.push(() => removeDir(copy));
    await repo.git('worktree', 'add', '--quiet', '--detach', copy);
    await repo.git('config', 'core.worktree', copy);
    await repo.write('config.js', `export const key = "${token('worktree')}";\n`);
    const result = await runCli(['run'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`points git at the work tree ${copy} (core.worktree)`);
    expect(result.stderr).toContain('run `git config --unset core.worktree`');
    const answer = await stop(repo);
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('core.worktree');
    expect(answer.reason).toContain('A person must remove that setting');
  });
});
