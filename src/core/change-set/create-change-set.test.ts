import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { TollgateError } from '../errors.js';
import { createChangeSet } from './index.js';
import type { ChangedFile, RepoChangeSet } from './types.js';

const { repoWith, onCleanup } = useIsolatedRepos();

function file(changeSet: RepoChangeSet, path: string): ChangedFile | undefined {
  return changeSet.files.find((f) => f.path === path);
}

const lines = (...values: string[]) => values.map((value) => `${value}\n`).join('');

describe('what the change set lists', () => {
  test('a repository without commits: no base, everything added', async () => {
    const repo = await repoWith({ 'a.txt': lines('one', 'two'), 'src/b.ts': 'x' }, { commit: false });
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.base).toEqual({ ref: null, commit: null, source: 'empty' });
    expect(changeSet.files).toEqual([
      {
        path: 'a.txt',
        status: 'added',
        binary: false,
        addedLines: [{ start: 1, end: 2 }],
        changedLines: [{ start: 1, end: 2 }],
        size: 8,
      },
      {
        path: 'src/b.ts',
        status: 'added',
        binary: false,
        addedLines: [{ start: 1, end: 1 }],
        changedLines: [{ start: 1, end: 1 }],
        size: 1,
      },
    ]);
    expect(changeSet.isEmpty).toBe(false);
  });

  test('an empty repository with nothing in it is an empty change set', async () => {
    const repo = await repoWith();
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet).toMatchObject({ files: [], ignored: [], skipped: [], isEmpty: true });
  });

  test('a clean checkout is an empty change set', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.isEmpty).toBe(true);
    expect(await changeSet.diff()).toBe('');
  });

  test('committed, staged, unstaged and untracked changes form one view of the working tree against the base', async () => {
    const repo = await repoWith({
      'committed.txt': lines('a', 'b'),
      'staged.txt': lines('a'),
      'unstaged.txt': lines('a', 'b', 'c'),
    });
    await repo.git('checkout', '-q', '-b', 'feature');
    await repo.write('committed.txt', lines('a', 'B'));
    await repo.commit('on the branch');
    await repo.write('staged.txt', lines('a', 'new'));
    await repo.git('add', 'staged.txt');
    await repo.write('unstaged.txt', lines('a', 'b2', 'c'));
    await repo.write('dir/untracked.txt', lines('1', '2', '3'));
    // Staged then changed again: the working tree wins.
    await repo.write('both.txt', lines('staged'));
    await repo.git('add', 'both.txt');
    await repo.write('both.txt', lines('staged', 'then more'));

    const changeSet = await createChangeSet({ cwd: join(repo.root, 'dir') });
    expect(changeSet.root).toBe(repo.root);
    expect(changeSet.base).toMatchObject({ ref: 'main', source: 'default-branch' });
    expect(changeSet.files.map((f) => [f.path, f.status, f.addedLines])).toEqual([
      ['both.txt', 'added', [{ start: 1, end: 2 }]],
      ['committed.txt', 'modified', [{ start: 2, end: 2 }]],
      ['dir/untracked.txt', 'added', [{ start: 1, end: 3 }]],
      ['staged.txt', 'modified', [{ start: 2, end: 2 }]],
      ['unstaged.txt', 'modified', [{ start: 2, end: 2 }]],
    ]);
  });

  test('files ignored by .gitignore are not listed; files ignored by the config are listed in `ignored`', async () => {
    const repo = await repoWith({ '.gitignore': 'build/\n*.log\n', 'keep.txt': 'k\n' });
    await repo.write('build/out.js', 'x');
    await repo.write('debug.log', 'x');
    await repo.write('package-lock.json', '{}');
    await repo.write('docs/generated/api.md', 'x');
    await repo.write('src/a.ts', 'x');
    const changeSet = await createChangeSet({ cwd: repo.root, ignore: ['package-lock.json', 'docs/generated/'] });
    expect(changeSet.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(changeSet.ignored).toEqual(['docs/generated/api.md', 'package-lock.json']);
    expect(await changeSet.diff()).not.toContain('package-lock.json');
  });

  test('tollgate never lists its own state folder', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('.tollgate/runs/1/events.jsonl', '{}\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.isEmpty).toBe(true);
  });

  test.each(['.tollgate/', '.tollgate', '/.tollgate/\nnode_modules/'])(
    'a .gitignore that lists the state folder (%j) still builds the change set',
    async (pattern) => {
      const repo = await repoWith({ '.gitignore': `${pattern}\n`, 'a.txt': 'a\n' });
      await repo.write('.tollgate/runs/1/events.jsonl', '{}\n');
      await repo.write('a.txt', 'changed\n');
      await repo.write('b.txt', 'new\n');
      const changeSet = await createChangeSet({ cwd: repo.root });
      expect(changeSet.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    },
  );

  test('a .gitignore notice about any other path still fails loudly', async () => {
    const { withoutIgnoredStateDir } = await import('./temp-index.js');
    const notice = 'The following paths are ignored by one of your .gitignore files:';
    const hints = 'hint: Use -f if you really want to add them.\nhint: Turn this message off by running';
    expect(withoutIgnoredStateDir(`${notice}\n.tollgate\n${hints}\n`)).toBe('');
    expect(withoutIgnoredStateDir(`${notice}\n.tollgate\nsecret.env\n${hints}\n`)).toContain('secret.env');
  });

  test('a deleted file is listed under its old path with no lines and no size', async () => {
    const repo = await repoWith({ 'gone.txt': lines('a', 'b'), 'stays.txt': 's\n' });
    await repo.remove('gone.txt');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files).toEqual([
      { path: 'gone.txt', status: 'deleted', binary: false, addedLines: [], changedLines: [], size: 0 },
    ]);
    expect(await changeSet.readText('gone.txt')).toBeNull();
    expect(await changeSet.readBytes('gone.txt')).toBeNull();
  });

  const body = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight');
  test.each([
    [
      'git mv',
      async (repo: TempRepo) => {
        await mkdir(join(repo.root, 'moved'));
        await repo.git('mv', 'old.txt', 'moved/new.txt');
      },
    ],
    [
      'a plain move (delete + untracked)',
      async (repo: TempRepo) => {
        await repo.remove('old.txt');
        await repo.write('moved/new.txt', body);
      },
    ],
  ])('a rename by %s has its old path', async (_name, move) => {
    const repo = await repoWith({ 'old.txt': body });
    await move(repo);
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files).toEqual([
      {
        path: 'moved/new.txt',
        oldPath: 'old.txt',
        status: 'renamed',
        binary: false,
        addedLines: [],
        changedLines: [],
        size: body.length,
      },
    ]);
    expect(await changeSet.diff()).toContain('rename from old.txt\nrename to moved/new.txt');
  });

  test('a renamed and edited file has the edited lines', async () => {
    const repo = await repoWith({ 'old.txt': body });
    await repo.remove('old.txt');
    await repo.write('new.txt', body.replace('three', 'THREE'));
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files).toMatchObject([
      { path: 'new.txt', oldPath: 'old.txt', status: 'renamed', addedLines: [{ start: 3, end: 3 }] },
    ]);
  });

  test('a deletion-only change marks the line the deletion sits before, or the last line at the end', async () => {
    const repo = await repoWith({
      'middle.txt': lines('1', '2', '3', '4'),
      'end.txt': lines('1', '2', '3'),
      'all.txt': lines('1'),
    });
    await repo.write('middle.txt', lines('1', '2', '4'));
    await repo.write('end.txt', lines('1'));
    await repo.write('all.txt', '');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((f) => [f.path, f.addedLines, f.changedLines])).toEqual([
      ['all.txt', [], [{ start: 1, end: 1 }]],
      ['end.txt', [], [{ start: 1, end: 1 }]],
      ['middle.txt', [], [{ start: 3, end: 3 }]],
    ]);
  });

  test('a binary file is listed, skipped for text, and its bytes are available', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0]);
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('img.png', bytes);
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files).toEqual([
      { path: 'img.png', status: 'added', binary: true, addedLines: [], changedLines: [], size: 10 },
    ]);
    expect(changeSet.skipped).toEqual([
      { path: 'img.png', reason: 'binary', detail: 'binary file: validators get its bytes but no text' },
    ]);
    expect(await changeSet.readText('img.png')).toBeNull();
    expect(await changeSet.readBytes('img.png')).toEqual(bytes);
  });

  test('a file over maxFileSize is listed and skipped, and its content is never read', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('big.txt', 'x'.repeat(3_200_000));
    await repo.write('small.txt', 'ok\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(file(changeSet, 'big.txt')).toMatchObject({ status: 'added', size: 3_200_000 });
    expect(changeSet.skipped).toEqual([
      { path: 'big.txt', reason: 'too_large', detail: '3.2 MB over the 1 MB cap (validation.maxFileSize)' },
    ]);
    expect(await changeSet.readText('big.txt')).toBeNull();
    expect(await changeSet.readText('small.txt')).toBe('ok\n');
    const tight = await createChangeSet({ cwd: repo.root, maxFileSize: 2 });
    expect(tight.skipped.map((s) => [s.path, s.detail])).toEqual([
      ['big.txt', '3.2 MB over the 2 B cap (validation.maxFileSize)'],
      ['small.txt', '3 B over the 2 B cap (validation.maxFileSize)'],
    ]);
  });

  test('a symlink out of the repository is skipped; one inside reads as its target text', async () => {
    const outside = await tempDir('tollgate-outside-');
    onCleanup(() => removeDir(outside));
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await symlink(join(outside, 'secret.txt'), join(repo.root, 'abs-out'));
    await symlink('../../etc/passwd', join(repo.root, 'rel-out'));
    await symlink('a.txt', join(repo.root, 'inside'));
    await mkdir(join(repo.root, 'sub'));
    await symlink('../a.txt', join(repo.root, 'sub/up-inside'));
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((f) => [f.path, f.status])).toEqual([
      ['abs-out', 'added'],
      ['inside', 'added'],
      ['rel-out', 'added'],
      ['sub/up-inside', 'added'],
    ]);
    expect(changeSet.skipped).toEqual([
      {
        path: 'abs-out',
        reason: 'symlink_outside_repo',
        detail: `symlink to ${JSON.stringify(join(outside, 'secret.txt'))} points outside the repository; its target is not read`,
      },
      {
        path: 'rel-out',
        reason: 'symlink_outside_repo',
        detail: 'symlink to "../../etc/passwd" points outside the repository; its target is not read',
      },
    ]);
    expect(await changeSet.readText('rel-out')).toBeNull();
    expect(await changeSet.readText('inside')).toBe('a.txt');
  });

  test('a file that became a symlink is a type change', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', link: 'was a file\n' });
    await repo.remove('link');
    await symlink('a.txt', join(repo.root, 'link'));
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files).toEqual([
      {
        path: 'link',
        status: 'type_changed',
        binary: false,
        addedLines: [{ start: 1, end: 1 }],
        changedLines: [{ start: 1, end: 1 }],
        size: 5,
      },
    ]);
  });

  test('a submodule is one entry with status submodule', async () => {
    const library = await repoWith({ 'lib.txt': 'v1\n' });
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.git('submodule', '--quiet', 'add', library.root, 'vendor/lib');
    const added = await createChangeSet({ cwd: repo.root });
    expect(added.files.map((f) => [f.path, f.status])).toEqual([
      ['.gitmodules', 'added'],
      ['vendor/lib', 'submodule'],
    ]);
    expect(await added.readBytes('vendor/lib')).toBeNull();

    const first = await repo.commit('add submodule');
    const v1 = (await repo.git('rev-parse', `${first}:vendor/lib`)).trim();
    await library.write('lib.txt', 'v2\n');
    const v2 = await library.commit('v2');
    await repo.git('-C', 'vendor/lib', 'pull', '--quiet', 'origin', 'main');
    const moved = await createChangeSet({ cwd: repo.root });
    expect(moved.files).toEqual([
      {
        path: 'vendor/lib',
        status: 'submodule',
        binary: false,
        addedLines: [],
        changedLines: [],
        size: 0,
        submodule: { from: v1, to: v2 },
      },
    ]);
  });

  test('a skip-worktree file gone from disk is read from the snapshot, not as nothing', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('hidden.txt', 'TOKEN=1\nTODO\n');
    await repo.git('add', 'hidden.txt');
    await repo.git('update-index', '--skip-worktree', 'hidden.txt');
    await repo.remove('hidden.txt');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((f) => [f.path, f.status, f.size])).toEqual([['hidden.txt', 'added', 13]]);
    expect(changeSet.skipped).toEqual([]);
    expect(await changeSet.readText('hidden.txt')).toBe('TOKEN=1\nTODO\n');
  });

  test('a skip-worktree symlink gone from disk is read from the snapshot: its target text, not unreadable', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await symlink('a.txt', join(repo.root, 'link.txt'));
    await repo.git('add', 'link.txt');
    await repo.git('update-index', '--skip-worktree', 'link.txt');
    await repo.remove('link.txt');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((f) => [f.path, f.status, f.size])).toEqual([['link.txt', 'added', 5]]);
    expect(changeSet.skipped).toEqual([]);
    expect(await changeSet.readText('link.txt')).toBe('a.txt');
  });

  test('a skip-worktree symlink gone from disk that leads out of the repository is not read', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await symlink('../outside.txt', join(repo.root, 'link.txt'));
    await repo.git('add', 'link.txt');
    await repo.git('update-index', '--skip-worktree', 'link.txt');
    await repo.remove('link.txt');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.skipped.map((f) => [f.path, f.reason])).toEqual([['link.txt', 'symlink_outside_repo']]);
    expect(await changeSet.readText('link.txt')).toBeNull();
  });

  test('a file gone from disk whose blob is too large is skipped as too large, not read', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('big.txt', 'x'.repeat(2048));
    await repo.git('add', 'big.txt');
    await repo.git('update-index', '--skip-worktree', 'big.txt');
    await repo.remove('big.txt');
    const changeSet = await createChangeSet({ cwd: repo.root, maxFileSize: 1024 });
    expect(changeSet.skipped.map((f) => [f.path, f.reason])).toEqual([['big.txt', 'too_large']]);
    expect(await changeSet.readText('big.txt')).toBeNull();
  });

  test('a nested repository without a commit is reported as unreadable, not dropped', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('nested/file.txt', 'x');
    await repo.git('-C', 'nested', 'init', '--quiet');
    await repo.write('b.txt', 'b\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((f) => f.path)).toEqual(['b.txt']);
    expect(changeSet.skipped).toEqual([
      {
        path: 'nested',
        reason: 'unreadable',
        detail: 'git could not read it (permissions, or a nested repository without a commit)',
      },
    ]);
  });

  const oddNames = [
    'with space.txt',
    'quote".txt',
    "apostrophe'.txt",
    'ünïcødé/файл.txt',
    'new\nline.txt',
    'tab\tname.txt',
    '-dash.txt',
    '*star?.txt',
    ':(glob)magic.txt',
    'back\\slash.txt',
  ];
  test('odd path names survive listing, reading and diffing', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'with space.txt': 'old\n' });
    for (const name of oddNames) await repo.write(name, `content of ${name}\n`);
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(changeSet.files.map((f) => f.path).sort()).toEqual([...oddNames].sort());
    for (const name of oddNames) {
      expect(file(changeSet, name)?.addedLines).toEqual([{ start: 1, end: name.includes('\n') ? 2 : 1 }]);
      expect(await changeSet.readText(name)).toBe(`content of ${name}\n`);
    }
    const starOnly = await changeSet.diff(['*star?.txt']);
    expect(starOnly).toContain('+content of *star?.txt');
    expect(starOnly.match(/^diff --git/gm)).toHaveLength(1);
  });

  test("inside a submodule, the change set is the submodule's own", async () => {
    const library = await repoWith({ 'lib.txt': 'v1\n' });
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.git('submodule', '--quiet', 'add', library.root, 'vendor/lib');
    await repo.commit('add submodule');
    await repo.write('vendor/lib/lib.txt', 'v2\n');
    const changeSet = await createChangeSet({ cwd: join(repo.root, 'vendor/lib') });
    expect(changeSet.root).toBe(join(repo.root, 'vendor/lib'));
    expect(changeSet.files.map((f) => [f.path, f.status])).toEqual([['lib.txt', 'modified']]);
  });

  test('a stray .git folder that is not a repository does not fool it', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await mkdir(join(repo.root, 'sub/.git'), { recursive: true });
    await repo.write('sub/b.txt', 'b\n');
    await repo.write('a.txt', 'changed\n');
    const changeSet = await createChangeSet({ cwd: join(repo.root, 'sub') });
    expect(changeSet.root).toBe(repo.root);
    expect(changeSet.files.map((f) => f.path)).toEqual(['a.txt', 'sub/b.txt']);
  });

  test('a linked worktree uses its own index', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    const worktree = join(repo.root, '..', `${repo.root.split('/').pop()}-wt`);
    onCleanup(() => removeDir(worktree));
    await repo.git('worktree', 'add', '--quiet', '-b', 'side', worktree);
    await repo.git('-C', worktree, 'rm', '--quiet', 'a.txt');
    await repo.write('main-only.txt', 'x');
    const changeSet = await createChangeSet({ cwd: worktree });
    expect(changeSet.root).toBe(worktree);
    expect(changeSet.files.map((f) => [f.path, f.status])).toEqual([['a.txt', 'deleted']]);
  });
});

describe('content and diff', () => {
  test('content is read once and cached', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('a.txt', 'first\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    expect(await changeSet.readText('a.txt')).toBe('first\n');
    await repo.write('a.txt', 'second\n');
    expect(await changeSet.readText('a.txt')).toBe('first\n');
    expect((await changeSet.readBytes('a.txt'))?.toString()).toBe('first\n');
    expect(await changeSet.readText('not-in-the-change-set.txt')).toBeNull();
  });

  test('diff() is the unified diff of the change set, limited to the paths asked for', async () => {
    const repo = await repoWith({ 'a.txt': lines('a', 'b', 'c'), 'b.txt': 'b\n' });
    await repo.write('a.txt', lines('a', 'B', 'c'));
    await repo.write('new.txt', 'n\n');
    const changeSet = await createChangeSet({ cwd: repo.root });
    const all = await changeSet.diff();
    expect(all).toBe(
      [
        'diff --git a/a.txt b/a.txt',
        `index ${(await repo.git('rev-parse', '--short', 'HEAD:a.txt')).trim()}..${(await repo.git('hash-object', 'a.txt')).trim().slice(0, 7)} 100644`,
        '--- a/a.txt',
        '+++ b/a.txt',
        '@@ -1,3 +1,3 @@',
        ' a',
        '-b',
        '+B',
        ' c',
        'diff --git a/new.txt b/new.txt',
        'new file mode 100644',
        `index 0000000..${(await repo.git('hash-object', 'new.txt')).trim().slice(0, 7)}`,
        '--- /dev/null',
        '+++ b/new.txt',
        '@@ -0,0 +1 @@',
        '+n',
        '',
      ].join('\n'),
    );
    expect(await changeSet.diff(['new.txt'])).toBe(all.slice(all.indexOf('diff --git a/new.txt')));
    expect(await changeSet.diff(['b.txt'])).toBe('');
    // The diff is of the change set as built, not of whatever the working tree holds later.
    await repo.write('a.txt', 'changed again\n');
    expect(await changeSet.diff()).toBe(all);
  });
});

describe('errors', () => {
  test('outside a git work tree', async () => {
    const dir = await tempDir();
    onCleanup(() => removeDir(dir));
    const error = await createChangeSet({ cwd: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TollgateError);
    expect(error).toMatchObject({
      code: 'not_a_repo',
      message: `${dir} is not inside a git work tree (run tollgate inside a repository, or git init)`,
    });
  });

  test('inside the .git folder', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await expect(createChangeSet({ cwd: join(repo.root, '.git') })).rejects.toMatchObject({ code: 'not_a_repo' });
  });

  test.each([
    ['--base', { base: 'nope' }, '--base: git does not know revision "nope" (expected a commit, branch or tag)'],
    [
      '--base that looks like an option',
      { base: '--all' },
      '--base: git does not know revision "--all" (expected a commit, branch or tag)',
    ],
    [
      'config base',
      { configBase: 'origin/nope' },
      'tollgate.config.yaml base: git does not know revision "origin/nope" (expected a commit, branch or tag)',
    ],
  ])('a bad %s', async (_name, options, message) => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    const error = await createChangeSet({ cwd: repo.root, ...options }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TollgateError);
    expect(error).toMatchObject({ code: 'bad_revision', message });
  });
});
