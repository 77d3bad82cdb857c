import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { createChangeSet } from './index.js';
import { OBJECT_WRITER_MALLOC, objectWriterEnv } from './object-writer-env.js';

const { repoWith, onCleanup } = useIsolatedRepos();
const KEPT = Object.fromEntries(OBJECT_WRITER_MALLOC);

describe('objectWriterEnv', () => {
  test('adds the malloc settings to what the caller gives, which wins', () => {
    expect(objectWriterEnv({ GIT_INDEX_FILE: '/i' }, {})).toEqual({ ...KEPT, GIT_INDEX_FILE: '/i' });
    expect(objectWriterEnv({ MALLOC_TOP_PAD_: '1' }, {}).MALLOC_TOP_PAD_).toBe('1');
  });

  test("leaves the user's own malloc settings alone", () => {
    const env = objectWriterEnv({}, { MALLOC_TRIM_THRESHOLD_: '4096' });
    expect(env.MALLOC_TRIM_THRESHOLD_).toBeUndefined(); // the child inherits the user's 4096
    expect(env.MALLOC_TOP_PAD_).toBe(KEPT.MALLOC_TOP_PAD_);
    expect(objectWriterEnv({}, { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0' })).toEqual({});
    expect(objectWriterEnv({}, { GLIBC_TUNABLES: 'glibc.rtld.nns=4' })).toEqual(KEPT);
  });
});

describe('the git processes of a snapshot', () => {
  test('the git add that writes the blobs keeps its heap; the rest run as they were', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'gone.txt': 'g\n' });
    await repo.write('a.txt', 'a2\n');
    await repo.write('new.txt', 'new\n');
    await repo.remove('gone.txt');
    const shimDir = await tempDir('tollgate-git-shim-');
    onCleanup(() => removeDir(shimDir));
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const log = join(shimDir, 'argv.log');
    writeFileSync(log, '');
    writeFileSync(
      join(shimDir, 'git'),
      `#!/bin/sh\necho "\${MALLOC_TRIM_THRESHOLD_:-unset} $1" >> '${log}'\nexec '${realGit}' "$@"\n`,
    );
    chmodSync(join(shimDir, 'git'), 0o755);
    const saved = { PATH: process.env.PATH, MALLOC_TRIM_THRESHOLD_: process.env.MALLOC_TRIM_THRESHOLD_ };
    process.env.PATH = `${shimDir}:${saved.PATH}`;
    delete process.env.MALLOC_TRIM_THRESHOLD_;
    let changeSet: Awaited<ReturnType<typeof createChangeSet>>;
    try {
      changeSet = await createChangeSet({ cwd: repo.root, maxFileSize: 1_000 });
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.MALLOC_TRIM_THRESHOLD_ !== undefined) process.env.MALLOC_TRIM_THRESHOLD_ = saved.MALLOC_TRIM_THRESHOLD_;
    }
    expect(changeSet.files.map((file) => `${file.status} ${file.path}`).sort()).toEqual([
      'added new.txt',
      'deleted gone.txt',
      'modified a.txt',
    ]);
    const gits = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(gits).toContain(`${KEPT.MALLOC_TRIM_THRESHOLD_} add`);
    expect(
      gits.filter((line) => line.endsWith(' add')).every((line) => line.startsWith(KEPT.MALLOC_TRIM_THRESHOLD_!)),
    ).toBe(true);
    expect(gits.filter((line) => !line.endsWith(' add')).every((line) => line.startsWith('unset '))).toBe(true);
  });
});
