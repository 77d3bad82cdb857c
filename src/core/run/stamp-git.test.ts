import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { fixedGitEnv } from '../change-set/snapshot-git-config.js';
import { gitAll, shellScript } from './stamp-git.js';

/**
 * The fast paths' git commands go through one shell: the results must be exactly those of starting each git alone,
 * whatever the environment tells a shell, and the commands must still run when there is no shell to start.
 */
const { repoWith } = useIsolatedRepos();

const COMMANDS = [
  ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all'],
  ['rev-parse', '--show-toplevel', '--all', '--symbolic-full-name', '--all'],
  ['config', '-z', '--get-regexp', '^filter\\..*\\.(clean|process)$'],
  ['config', '--get', "it's.quoted"],
];

describe('gitAll', () => {
  test('one shell gives each command the exit code and stdout it gives alone, in order', async () => {
    const repo = await repoWith({ 'a.txt': 'one\n', 'dir/b.txt': 'two\n' });
    await repo.write('a.txt', 'changed\n');
    await repo.write('new file.txt', 'new\n');
    const env = fixedGitEnv(process.env);
    const alone = await gitAll(COMMANDS, repo.root, env, join(repo.root, 'no-such-shell'));
    const batched = await gitAll(COMMANDS, repo.root, env);
    expect(batched).toEqual(alone);
    expect(batched.map((result) => result.code)).toEqual([0, 0, 1, 1]);
    expect(batched[0]!.stdout).toContain('new file.txt');
    expect(batched[1]!.stdout.split('\n')[0]).toBe(
      await repo.git('rev-parse', '--show-toplevel').then((s) => s.trim()),
    );
  });

  test('an exported shell function, shell options or startup file in the environment change nothing', async () => {
    const repo = await repoWith({ 'a.txt': 'one\n' });
    const startup = join(repo.root, 'startup.sh');
    await writeFile(startup, 'git() { echo hijacked; }\n');
    await chmod(startup, 0o755);
    const env = {
      ...fixedGitEnv(process.env),
      'BASH_FUNC_git%%': '() { echo hijacked; }',
      SHELLOPTS: 'errexit',
      BASH_ENV: startup,
      ENV: startup,
    };
    const plain = await gitAll(COMMANDS, repo.root, fixedGitEnv(process.env));
    expect(await gitAll(COMMANDS, repo.root, env)).toEqual(plain);
    expect(plain.every((result) => !result.stdout.includes('hijacked'))).toBe(true);
  });

  test('outside a repository every command fails as it would alone', async () => {
    const repo = await repoWith({});
    const outside = join(repo.root, '..');
    const env = { ...fixedGitEnv(process.env), GIT_CEILING_DIRECTORIES: outside };
    const results = await gitAll(COMMANDS.slice(0, 2), outside, env);
    expect(results.map((result) => result.code === 0)).toEqual([false, false]);
  });

  test('the script quotes every word', () => {
    expect(shellScript([['config', "it's", '$HOME']])).toContain(`command git 'config' 'it'\\''s' '$HOME' >&3 &`);
  });
});
