import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { DIGEST_CACHE_FILE } from './digest-cache.js';
import { createChangeSet } from './index.js';
import type { RepoChangeSet } from './types.js';

/**
 * The change set is the bytes on disk: index flags, a lying file system monitor, a sparse checkout and clean filters
 * cannot hide an edit, and content is read from the snapshot taken when the change set was built.
 */
const { repoWith } = useIsolatedRepos();

const paths = (changeSet: RepoChangeSet) => changeSet.files.map((file) => `${file.status} ${file.path}`);

describe('index state does not hide an edit', () => {
  test('skip-worktree and assume-unchanged files are compared by their bytes; the user index keeps its flags', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    await repo.git('update-index', '--skip-worktree', 'a.txt');
    await repo.git('update-index', '--assume-unchanged', 'b.txt');
    await repo.write('a.txt', 'a\nsecret a\n');
    await repo.write('b.txt', 'b\nsecret b\n');
    expect((await repo.git('status', '--porcelain')).trim()).toBe('');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['modified a.txt', 'modified b.txt']);
    expect(await changeSet.readText('b.txt')).toBe('b\nsecret b\n');
    expect(await repo.git('ls-files', '-v')).toBe('S a.txt\nh b.txt\nH c.txt\n');
  });

  test('a core.fsmonitor hook that reports nothing changed is not asked', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const hook = join(repo.root, '.git', 'lying-monitor');
    // Protocol v2: the token, a NUL, then the changed paths (none).
    await writeFile(hook, '#!/bin/sh\nprintf "%s\\0" "$2"\n');
    await chmod(hook, 0o755);
    await repo.git('config', 'core.fsmonitor', hook);
    await repo.git('config', 'core.fsmonitorHookVersion', '2');
    await repo.git('status'); // writes the monitor's token into the index
    await repo.write('a.txt', 'a\nsecret\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['modified a.txt']);
  });

  test('sparse checkout: a file outside the cone that is absent is not deleted; one on disk is compared', async () => {
    const repo = await repoWith({ 'in/a.txt': 'a\n', 'out/b.txt': 'b\n', 'out/c.txt': 'c\n' });
    await repo.git('sparse-checkout', 'set', 'in');
    await repo.write('out/b.txt', 'b\nsecret\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['modified out/b.txt']);
  });
});

describe('clean filters do not decide what is scanned', () => {
  test('a filter that restores the committed text does not hide an edit', async () => {
    const repo = await repoWith({ 'app.py': 'print(1)\n' });
    await repo.git('config', 'filter.hide.clean', 'git show HEAD:app.py');
    await writeFile(join(repo.root, '.git', 'info', 'attributes'), 'app.py filter=hide\n');
    await repo.write('app.py', 'print(1)\ntoken = "secret"\n');
    expect(await repo.git('diff')).toBe(''); // git itself sees no change
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['modified app.py']);
    expect(await changeSet.readText('app.py')).toBe('print(1)\ntoken = "secret"\n');
    const diff = await changeSet.diff();
    expect(diff).toContain('+token = "secret"');
  });

  test('an LFS-style filter that stores a pointer: the new file is read as the bytes on disk', async () => {
    const repo = await repoWith({ 'README.md': '# x\n' });
    await repo.git('config', 'filter.ptr.clean', 'printf "version https://example/spec\\noid x\\nsize 1\\n"');
    await repo.git('config', 'filter.ptr.smudge', 'cat');
    await writeFile(join(repo.root, '.git', 'info', 'attributes'), '*.dat filter=ptr\n');
    await repo.write('keys.dat', 'line one\nkey = "secret"\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['added keys.dat']);
    expect(await changeSet.readText('keys.dat')).toBe('line one\nkey = "secret"\n');
    expect(await changeSet.diff()).toContain('+key = "secret"');
  });

  test('many filtered files, odd names among them, are each read as their own bytes on disk', async () => {
    const repo = await repoWith({ 'README.md': '# x\n' });
    await repo.git('config', 'filter.ptr.clean', 'printf "version https://example/spec\\noid x\\nsize 1\\n"');
    await writeFile(join(repo.root, '.git', 'info', 'attributes'), '*.dat filter=ptr\n');
    const names = ['a.dat', 'sub/b.dat', '"quoted.dat', 'new\nline.dat', 'space d.dat'];
    for (const [index, name] of names.entries()) await repo.write(name, `file ${index}\nkey = "secret ${index}"\n`);
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet).sort()).toEqual(names.map((name) => `added ${name}`).sort());
    for (const [index, name] of names.entries())
      expect(await changeSet.readText(name)).toBe(`file ${index}\nkey = "secret ${index}"\n`);
  });

  test.each([
    ['a macro in info/attributes', 'hide', '[attr]tidy filter=hide\napp.py tidy\n', null],
    ['an ignored .gitattributes', 'hide', null, 'app.py filter=hide\n'],
    ['a driver whose name no pathspec can spell', 'hide.v2', 'app.py filter=hide.v2\n', null],
  ])('a filter set through %s does not hide an edit', async (_name, driver, infoAttributes, ignoredAttributes) => {
    const repo = await repoWith({ 'app.py': 'print(1)\n', 'other.py': 'x = 1\n' });
    await repo.git('config', `filter.${driver}.clean`, 'git show HEAD:app.py');
    if (infoAttributes !== null) await writeFile(join(repo.root, '.git', 'info', 'attributes'), infoAttributes);
    if (ignoredAttributes !== null) {
      await writeFile(join(repo.root, '.git', 'info', 'exclude'), '.gitattributes\n');
      await repo.write('.gitattributes', ignoredAttributes);
    }
    await repo.write('app.py', 'print(1)\ntoken = "secret"\n');
    expect(await repo.git('diff')).toBe(''); // git itself sees no change
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['modified app.py']);
    expect(await changeSet.readText('app.py')).toBe('print(1)\ntoken = "secret"\n');
  });

  test('Git LFS: an unchanged file is read once and kept by its stat data; an edit is still seen', async () => {
    const repo = await repoWith({ 'README.md': '# x\n' });
    // A clean filter that stores what git-lfs stores: a pointer naming the content's SHA-256 and size.
    const clean = join(repo.root, '.git', 'lfs-clean.cjs');
    await writeFile(
      clean,
      [
        "const bytes = require('node:fs').readFileSync(0);",
        "const oid = require('node:crypto').createHash('sha256').update(bytes).digest('hex');",
        'process.stdout.write("version https://git-lfs.github.com/spec/v1\\noid sha256:" + oid + "\\nsize " + bytes.length + "\\n");',
      ].join('\n'),
    );
    await repo.git('config', 'filter.lfs.clean', `"${process.execPath}" "${clean}"`);
    await repo.write('.gitattributes', '*.bin filter=lfs\n');
    await repo.write('model.bin', 'weights\n');
    await repo.commit('lfs');
    await mkdir(join(repo.root, '.tollgate'));
    // Old enough to be kept (see RACY_MS in digest-cache.ts).
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(paths(await createChangeSet({ cwd: repo.root }))).toEqual([]);
    expect(await readFile(join(repo.root, DIGEST_CACHE_FILE), 'utf8')).toContain('model.bin');
    expect(paths(await createChangeSet({ cwd: repo.root }))).toEqual([]);
    await repo.write('model.bin', 'weights\ntoken = "secret"\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['modified model.bin']);
    expect(await changeSet.readText('model.bin')).toBe('weights\ntoken = "secret"\n');
  });

  test('an unchanged file under a filter that keeps its bytes stays unchanged', async () => {
    const repo = await repoWith({ 'README.md': '# x\n' });
    await repo.git('config', 'filter.same.clean', 'cat');
    await repo.write('.gitattributes', '*.txt filter=same\n');
    await repo.write('a.txt', 'a\n');
    await repo.commit('filtered');
    await repo.write('b.md', 'b\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['added b.md']);
  });
});

describe('the snapshot', () => {
  test('content is what the file held when the change set was built, whatever it holds later', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('a.txt', 'a\nsecret\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    await repo.write('a.txt', 'a\nclean\n');
    expect(await changeSet.readText('a.txt')).toBe('a\nsecret\n');
    expect((await changeSet.readBytes('a.txt'))?.toString()).toBe('a\nsecret\n');
    await rm(join(repo.root, 'a.txt'));
    const again = await createChangeSet({ cwd: repo.root });
    expect(paths(again)).toEqual(['deleted a.txt']);
    expect(await readFile(join(repo.root, '.git', 'HEAD'), 'utf8')).toContain('refs/heads/main');
  });

  test('tracked files under .tollgate/ are part of the change; its untracked state is not', async () => {
    const repo = await repoWith({ 'README.md': '# x\n' });
    await repo.write('.tollgate/creds.py', 'token = 1\n');
    await repo.write('.tollgate/state.json', '{}\n');
    await repo.git('add', '-f', '.tollgate/creds.py');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(paths(changeSet)).toEqual(['added .tollgate/creds.py']);
    await repo.git('commit', '-q', '-m', 'creds');
    await repo.write('.tollgate/creds.py', 'token = 2\n');
    expect(paths(await createChangeSet({ cwd: repo.root, base: 'HEAD' }))).toEqual(['modified .tollgate/creds.py']);
  });
});
