import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempHome, createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';

/**
 * The pre-commit framework as a project meets it: a clean cache (PRE_COMMIT_HOME in a temp folder, a temp HOME), a
 * `.pre-commit-config.yaml` naming this repository by path and commit, `pre-commit install`, then real commits. The
 * hooks install without npm or a build (a fake npm, npx and tsc first on PATH record any call), and the secrets hook
 * blocks a commit that adds a secret and lets a clean one through.
 *
 * It runs the pre-commit on PATH, Debian 12's 3.0.4 in CI (`.ci/run` installs it), and is skipped where there is
 * none. Another release runs the same test from its source: TOLLGATE_TEST_PRE_COMMIT_SOURCE=/path/to/its/checkout
 * (with a pre_commit-X.dist-info beside its pre_commit/ folder) and TOLLGATE_TEST_PRE_COMMIT_PYTHON=/usr/bin/python3
 * (a Python with cfgv, identify, nodeenv, pyyaml, virtualenv); see docs/pre-commit.md.
 */
const ROOT = join(import.meta.dirname, '../..');
const token = fakeChecksumToken('ghp_', 'pre-commit-framework');

interface Framework {
  label: string;
  command: string[];
  env: NodeJS.ProcessEnv;
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)));
}

const frameworks: Framework[] = [];
if (onPath('pre-commit')) frameworks.push({ label: 'pre-commit on PATH', command: ['pre-commit'], env: {} });
const source = process.env.TOLLGATE_TEST_PRE_COMMIT_SOURCE;
if (source) {
  const python = process.env.TOLLGATE_TEST_PRE_COMMIT_PYTHON ?? 'python3';
  frameworks.push({
    label: `pre-commit from ${source}`,
    command: [python, '-m', 'pre_commit'],
    env: { PYTHONPATH: source },
  });
}

/**
 * A clone of this repository at a commit holding the working tree as it is (in CI that is HEAD itself): what a
 * project's `repo:` and `rev:` name. Uncommitted edits are committed in the clone, so a change is tested before it is
 * committed here.
 */
async function hookRepository(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  git(ROOT, 'clone', '--quiet', '--shared', ROOT, dir);
  const edited = [
    ...git(ROOT, 'diff', '--name-only', '-z', 'HEAD').split('\0'),
    ...git(ROOT, 'ls-files', '-z', '--others', '--exclude-standard').split('\0'),
  ].filter((path) => path !== '');
  for (const path of edited) {
    const target = join(dir, path);
    if (existsSync(join(ROOT, path))) {
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(ROOT, path), target);
    } else {
      rmSync(target, { force: true });
    }
  }
  if (edited.length > 0) {
    git(dir, 'add', '-A');
    git(dir, 'commit', '--quiet', '--no-verify', '-m', 'the working tree');
  }
  return git(dir, 'rev-parse', 'HEAD').trim();
}

/** Every folder under `dir` (not following links), as paths relative to it. */
function folders(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [prefix + entry.name, ...folders(join(dir, entry.name), `${prefix}${entry.name}/`)]);
}

describe.skipIf(frameworks.length === 0)('tollgate from the pre-commit framework', () => {
  let scratch: string;
  let rev: string;
  let hookRepo: string;
  let fakeBin: string;
  let toolCalls: string;

  beforeAll(async () => {
    scratch = await tempDir('tollgate-pre-commit-');
    const gitHome = await createTempHome();
    hookRepo = join(scratch, 'tollgate');
    rev = await hookRepository(hookRepo, gitHome.env);
    await gitHome.cleanup();
    // Installing a hook must not run these: each records its call and fails.
    fakeBin = join(scratch, 'fake-bin');
    toolCalls = join(scratch, 'tool-calls.log');
    mkdirSync(fakeBin);
    for (const tool of ['npm', 'npx', 'tsc', 'yarn', 'pnpm']) {
      writeFileSync(join(fakeBin, tool), `#!/bin/sh\necho "${tool} $*" >> '${toolCalls}'\nexit 1\n`);
      chmodSync(join(fakeBin, tool), 0o755);
    }
  }, 120_000);
  afterAll(() => removeDir(scratch));

  describe.each(frameworks)('$label', (framework) => {
    let repo: TempRepo;
    let env: NodeJS.ProcessEnv;
    let cache: string;
    const preCommit = (...args: string[]) =>
      runProcess(framework.command[0]!, [...framework.command.slice(1), ...args], {
        cwd: repo.root,
        env,
        timeoutMs: 300_000,
      });
    const commit = (message: string) =>
      runProcess('git', ['commit', '-m', message], { cwd: repo.root, env, timeoutMs: 120_000 });

    beforeAll(async () => {
      repo = await createTempRepo({
        files: {
          'README.md': 'a project\n',
          '.pre-commit-config.yaml': [
            'repos:',
            `  - repo: ${hookRepo}`,
            `    rev: ${rev}`,
            '    hooks:',
            '      - id: tollgate-secrets',
            '      - id: tollgate-run',
            '',
          ].join('\n'),
        },
      });
      cache = await tempDir('tollgate-pre-commit-home-');
      env = { ...repo.env, PRE_COMMIT_HOME: cache, PATH: `${fakeBin}${delimiter}${repo.env.PATH ?? ''}` };
      delete env.PYTHONPATH;
      delete env.PRE_COMMIT;
      Object.assign(env, framework.env);
      rmSync(toolCalls, { force: true });
    }, 60_000);
    afterAll(async () => {
      await repo?.cleanup();
      if (cache) await removeDir(cache);
    });

    test('installs from a clean cache in seconds: no npm, no build, no node_modules, no warning', async () => {
      const version = await preCommit('--version');
      expect(version.exitCode, version.stderr).toBe(0);
      const installed = await preCommit('install');
      expect(installed.exitCode, installed.stderr + installed.stdout).toBe(0);
      const hooks = await preCommit('install-hooks');
      const output = hooks.stdout + hooks.stderr;
      expect(hooks.exitCode, output).toBe(0);
      // Before, pre-commit npm-installed every development dependency and ran the TypeScript build: minutes.
      expect(hooks.durationMs, `${version.stdout.trim()}: install-hooks`).toBeLessThan(120_000);
      expect(output).not.toMatch(/warning|deprecat/i);
      expect(existsSync(toolCalls) ? readFileSync(toolCalls, 'utf8') : '').toBe('');
      const made = folders(cache);
      expect(made.filter((path) => /(^|\/)(node_modules|node_env[^/]*)$/.test(path))).toEqual([]);
      expect(made.filter((path) => /(^|\/)dist\/bundle$/.test(path))).toEqual([]);
    }, 300_000);

    test('a commit that adds a secret is blocked, masked; a clean one passes; the whole gate waits for a stage', async () => {
      const head = (await repo.git('rev-parse', 'HEAD')).trim();
      await repo.write('app.env', `TOKEN=${token}\n`);
      await repo.git('add', 'app.env');
      const blocked = await commit('add the token');
      const said = blocked.stdout + blocked.stderr;
      expect(blocked.exitCode, said).not.toBe(0);
      expect(said).toContain('tollgate (secrets in the staged change)');
      expect(said).toContain('commit blocked: 1 secret in staged changes');
      expect(said).toContain('app.env:1:7 secrets/github-pat');
      expect(said).not.toContain(token);
      expect((await repo.git('rev-parse', 'HEAD')).trim()).toBe(head);

      await repo.write('app.env', `TOKEN=\${GITHUB_TOKEN}\n`);
      await repo.git('add', 'app.env');
      const clean = await commit('read the token from the environment');
      const passed = clean.stdout + clean.stderr;
      expect(clean.exitCode, passed).toBe(0);
      expect(passed).toMatch(/tollgate \(secrets in the staged change\)\.+Passed/);
      // `stages: [manual]` in the manifest: listed without a stage of its own, the whole gate does not run on commit.
      expect(passed).not.toContain('tollgate (the whole gate)');
      expect((await repo.git('rev-parse', 'HEAD')).trim()).not.toBe(head);
      expect(existsSync(toolCalls)).toBe(false);
    }, 300_000);
  });
});
