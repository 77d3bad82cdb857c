import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { runProcess } from '../../src/core/process.js';

/**
 * `.pre-commit-hooks.yaml` against pre-commit's own rules, for the releases people have: Debian 12's 3.0.4 (which
 * test/integrations/pre-commit-framework.test.ts also runs) and the current 4.x. The tables below are pre-commit's
 * source and changelog, cited per row; docs/pre-commit.md has the same table for users.
 */
const ROOT = join(import.meta.dirname, '../..');

/** pre-commit 3.0.4, pre_commit/constants.py STAGES: every other stage name fails the manifest's validation. */
const STAGES_3_0 = [
  'commit',
  'merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'manual',
  'post-checkout',
  'push',
  'post-merge',
  'post-rewrite',
];
/** pre-commit 4.0.0 and later warn each user who installs the hooks about these (renamed in 3.2.0). */
const STAGES_DEPRECATED_4 = ['commit', 'merge-commit', 'push'];
/** In both 3.0.4 (pre_commit/languages/all.py) and 4.x (all_languages.py, where 4.4.0 made them quiet aliases). */
const LANGUAGES_BOTH = ['script', 'system', 'node', 'python', 'docker', 'docker_image', 'fail', 'pygrep'];
/** The keys pre-commit 3.0.4's MANIFEST_HOOK_DICT knows (4.x knows them all too). */
const MANIFEST_KEYS_3_0 = [
  'id',
  'name',
  'entry',
  'language',
  'alias',
  'files',
  'exclude',
  'types',
  'types_or',
  'exclude_types',
  'additional_dependencies',
  'args',
  'always_run',
  'fail_fast',
  'pass_filenames',
  'description',
  'language_version',
  'log_file',
  'minimum_pre_commit_version',
  'require_serial',
  'stages',
  'verbose',
];

interface HookEntry {
  id: string;
  name: string;
  entry: string;
  language: string;
  pass_filenames?: boolean;
  always_run?: boolean;
  stages?: string[];
  minimum_pre_commit_version?: string;
}

const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as HookEntry[];

describe('.pre-commit-hooks.yaml (the pre-commit framework adds tollgate with repo:/rev:)', () => {
  test('the two hooks, run once per commit or push whatever files changed', () => {
    expect(hooks.map((hook) => hook.id)).toEqual(['tollgate-secrets', 'tollgate-run']);
    for (const hook of hooks) {
      expect(hook).toMatchObject({ pass_filenames: false, always_run: true, name: expect.any(String) });
    }
  });

  test('valid on pre-commit 3.0.4 and free of what pre-commit 4 warns about', () => {
    for (const hook of hooks) {
      const where = `hook ${hook.id}`;
      for (const key of Object.keys(hook)) expect(MANIFEST_KEYS_3_0, `${where}: key ${key}`).toContain(key);
      expect(LANGUAGES_BOTH, `${where}: language`).toContain(hook.language);
      for (const stage of hook.stages ?? []) {
        expect(STAGES_3_0, `${where}: stage ${stage} is rejected by pre-commit before 3.2`).toContain(stage);
        expect(STAGES_DEPRECATED_4, `${where}: stage ${stage} is deprecated in pre-commit 4`).not.toContain(stage);
      }
      expect(hook.minimum_pre_commit_version, `${where}: Debian 12 has pre-commit 3.0.4`).toBeUndefined();
    }
  });

  test('the whole gate never runs on a commit unless the project names a stage for it', () => {
    expect(hooks.find((hook) => hook.id === 'tollgate-run')?.stages).toEqual(['manual']);
  });

  test('installing needs no environment: each entry is a committed node script beside the prebuilt CLI', () => {
    // `language: node` would npm-install every development dependency of this repository and run its build.
    const tracked = execFileSync('git', ['ls-files', '--stage', '--', 'pre-commit', 'action/dist'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const modes = new Map(tracked.split('\n').map((line) => [line.split('\t')[1], line.split(' ')[0]]));
    for (const hook of hooks) {
      expect(hook.language).toBe('script');
      const [script] = hook.entry.split(' ');
      expect(modes.get(script), `${script} must be committed executable (git update-index --chmod=+x)`).toBe('100755');
      const source = readFileSync(join(ROOT, script!), 'utf8');
      expect(source.startsWith('#!/usr/bin/env node\n')).toBe(true);
      expect(source).toContain("require('../action/dist/tollgate.cjs')");
    }
    // The prebuilt it loads, which test/integrations/action-bundle.test.ts keeps equal to a fresh build.
    for (const file of ['action/dist/tollgate.cjs', 'action/dist/scan-worker.cjs']) expect(modes.has(file)).toBe(true);
  });

  test('on a Node older than 20 the entry says so in one line, exit 2, before loading the CLI', async () => {
    const olderNode =
      'data:text/javascript,Object.defineProperty(process,"version",{value:"v18.19.0"});' +
      'Object.defineProperty(process,"versions",{value:{...process.versions,node:"18.19.0"}});';
    const [script, ...args] = hooks[0]!.entry.split(' ');
    const old = await runProcess(process.execPath, ['--import', olderNode, script!, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
      timeoutMs: 60_000,
    });
    expect(old).toMatchObject({ exitCode: 2, stdout: '' });
    expect(old.stderr).toBe(
      'tollgate: needs Node.js 20 or later, and the `node` on PATH is v18.19.0: put a newer node first on PATH\n',
    );
  });

  test.each(hooks.map((hook) => [hook.id, hook.entry]))('the %s entry is a command the CLI knows', async (_, entry) => {
    const [script, ...args] = entry.split(' ');
    const help = await runProcess(process.execPath, [script!, ...args, '--help'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
      timeoutMs: 60_000,
    });
    expect(help.exitCode, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage: tollgate /);
  });
});
