import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createTempRepo, removeDir, tempDir } from '../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../test/support/isolated-repos.js';
import { writeLoggingGit } from '../../test/support/logging-git.js';
import { createChangeSet } from './change-set/index.js';
import { HUGE_KEPT_HEAP_TUNABLES, KEPT_HEAP_TUNABLES, keptHeapEnv, withKeptHeap } from './kept-heap-env.js';

const { repoWith, onCleanup } = useIsolatedRepos();
const KEPT = { GLIBC_TUNABLES: KEPT_HEAP_TUNABLES };

describe('a git that handles many blobs: its allocator keeps what it frees', () => {
  test('a whole environment gets the tunables where it tunes nothing, and keeps the rest', () => {
    const env = { PATH: '/bin', X: '1' };
    expect(keptHeapEnv(env)).toEqual({ PATH: '/bin', X: '1', ...KEPT });
    expect(env).toEqual({ PATH: '/bin', X: '1' });
    expect(keptHeapEnv({ GLIBC_TUNABLES: '' })).toEqual(KEPT);
    expect(keptHeapEnv({ GLIBC_TUNABLES: 'glibc.rtld.nns=4' })).toEqual({
      GLIBC_TUNABLES: `glibc.rtld.nns=4:${KEPT_HEAP_TUNABLES}`,
    });
  });

  test('a long pass asks for huge pages too, and a user who tunes malloc still decides', () => {
    expect(HUGE_KEPT_HEAP_TUNABLES).toBe(`${KEPT_HEAP_TUNABLES}:glibc.malloc.hugetlb=1`);
    expect(keptHeapEnv({ X: '1' }, { hugePages: true })).toEqual({ X: '1', GLIBC_TUNABLES: HUGE_KEPT_HEAP_TUNABLES });
    expect(keptHeapEnv({ GLIBC_TUNABLES: 'glibc.rtld.nns=4' }, { hugePages: true })).toEqual({
      GLIBC_TUNABLES: `glibc.rtld.nns=4:${HUGE_KEPT_HEAP_TUNABLES}`,
    });
    const tuned = { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' };
    expect(keptHeapEnv(tuned, { hugePages: true })).toBe(tuned);
    const legacy = { MALLOC_ARENA_MAX: '1' };
    expect(keptHeapEnv(legacy, { hugePages: true })).toBe(legacy);
  });

  test("a user's own malloc settings are left as they are", () => {
    const tuned = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' };
    expect(keptHeapEnv(tuned)).toBe(tuned);
    const legacy = { MALLOC_TRIM_THRESHOLD_: '0' };
    expect(keptHeapEnv(legacy)).toBe(legacy);
    expect(withKeptHeap({}, { MALLOC_TRIM_THRESHOLD_: '4096' })).toEqual({});
    expect(withKeptHeap({ MALLOC_TOP_PAD_: '1' }, {})).toEqual({ MALLOC_TOP_PAD_: '1' });
    expect(withKeptHeap({}, { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0' })).toEqual({});
  });

  test('variables over the inherited environment get the tunables beside them', () => {
    expect(withKeptHeap({ GIT_INDEX_FILE: '/i' }, {})).toEqual({ ...KEPT, GIT_INDEX_FILE: '/i' });
    expect(withKeptHeap({}, { GLIBC_TUNABLES: 'glibc.rtld.nns=4' })).toEqual({
      GLIBC_TUNABLES: `glibc.rtld.nns=4:${KEPT_HEAP_TUNABLES}`,
    });
    expect(withKeptHeap({ GIT_INDEX_FILE: '/i' }, {}, { hugePages: true })).toEqual({
      GIT_INDEX_FILE: '/i',
      GLIBC_TUNABLES: HUGE_KEPT_HEAP_TUNABLES,
    });
    expect(withKeptHeap({}, { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }, { hugePages: true })).toEqual({});
  });

  test("git's patch is byte for byte the same with the tunables", async () => {
    const repo = await createTempRepo();
    onCleanup(() => repo.cleanup());
    await repo.write('a.txt', `${'line\n'.repeat(50_000)}`);
    await repo.commit('one');
    await repo.write('a.txt', `${'line\nother\n'.repeat(40_000)}`);
    await repo.commit('two');
    const log = (env: NodeJS.ProcessEnv) =>
      spawnSync('git', ['log', '-p', '-U0', '--cc', '--no-renames', '--raw'], {
        cwd: repo.root,
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
    const env = { PATH: process.env.PATH, HOME: repo.root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    const plain = log(env);
    const kept = log(keptHeapEnv(env));
    const huge = log(keptHeapEnv(env, { hugePages: true }));
    expect(huge.status).toBe(0);
    expect(huge.stdout.equals(plain.stdout)).toBe(true);
    expect(plain.stderr.toString()).toBe('');
    expect(plain.status).toBe(0);
    expect(kept.status).toBe(0);
    expect(kept.stdout.equals(plain.stdout)).toBe(true);
    expect(kept.stdout.length).toBeGreaterThan(100_000);
  });
});

describe('the git processes of a snapshot', () => {
  test('the git add that writes the blobs and the diffs of the change keep their heap in huge pages; the rest run as they were', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'gone.txt': 'g\n' });
    await repo.write('a.txt', 'a2\n');
    await repo.write('new.txt', 'new\n');
    await repo.remove('gone.txt');
    const shimDir = await tempDir('tollgate-git-shim-');
    onCleanup(() => removeDir(shimDir));
    const log = join(shimDir, 'argv.log');
    writeLoggingGit(shimDir, log, `\${GLIBC_TUNABLES:-unset} $1`);
    const saved = { PATH: process.env.PATH, GLIBC_TUNABLES: process.env.GLIBC_TUNABLES };
    process.env.PATH = `${shimDir}:${saved.PATH}`;
    delete process.env.GLIBC_TUNABLES;
    let changeSet: Awaited<ReturnType<typeof createChangeSet>>;
    try {
      changeSet = await createChangeSet({ cwd: repo.root, maxFileSize: 1_000 });
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.GLIBC_TUNABLES !== undefined) process.env.GLIBC_TUNABLES = saved.GLIBC_TUNABLES;
    }
    expect(changeSet.files.map((file) => `${file.status} ${file.path}`).sort()).toEqual([
      'added new.txt',
      'deleted gone.txt',
      'modified a.txt',
    ]);
    const gits = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const long = (line: string) => line.endsWith(' add') || line.endsWith(' diff-index');
    expect(gits).toContain(`${HUGE_KEPT_HEAP_TUNABLES} add`);
    expect(gits).toContain(`${HUGE_KEPT_HEAP_TUNABLES} diff-index`);
    expect(gits.filter(long).every((line) => line.startsWith(`${HUGE_KEPT_HEAP_TUNABLES} `))).toBe(true);
    expect(gits.filter((line) => !long(line)).every((line) => line.startsWith('unset '))).toBe(true);
  });
});
