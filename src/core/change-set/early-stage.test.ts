import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/git-repo.js';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { writeLoggingGit } from '../../../test/support/logging-git.js';
import { startEarlyStage } from './early-stage.js';
import { createChangeSet, startChangeSet } from './index.js';

/**
 * `tollgate run` begins its snapshot's `git add` before the CLI loads (bin/tollgate.cjs through fast-start.cjs) and
 * hands it to `startChangeSet`: the run must get the change set it would have built itself, from that one `git add`,
 * and a stage that does not fit (another work tree) or is abandoned leaves no folder and no git behind.
 */
const { repoWith, onCleanup } = useIsolatedRepos();

/**
 * Runs `work` with TMPDIR pointed at a fresh folder and a `git` first on PATH that logs each argv, one line each;
 * returns what is left in the folder afterwards and the gits started.
 */
async function withLoggedGit(work: () => Promise<void>): Promise<{ left: string[]; gits: string[] }> {
  const privateTmp = await tempDir('tollgate-tmp-');
  const shimDir = await tempDir('tollgate-git-shim-');
  onCleanup(() => removeDir(privateTmp));
  onCleanup(() => removeDir(shimDir));
  const log = join(shimDir, 'argv.log');
  writeLoggingGit(shimDir, log);
  const saved = { TMPDIR: process.env.TMPDIR, PATH: process.env.PATH };
  process.env.TMPDIR = privateTmp;
  process.env.PATH = `${shimDir}:${saved.PATH}`;
  try {
    await work();
  } finally {
    process.env.TMPDIR = saved.TMPDIR;
    process.env.PATH = saved.PATH;
  }
  return { left: await readdir(privateTmp), gits: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

const isSnapshotAdd = (argv: string) => argv.startsWith('add --all --ignore-errors -- .');

describe('a snapshot whose git add began before the CLI loaded', () => {
  test('is taken over: the same change set as one built alone, from that one git add, its folder removed', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n', 'b.log': 'b\n', 'gone.txt': 'g\n' });
    await repo.write('a.txt', 'a2\n');
    await repo.write('b.log', 'b2\n');
    await repo.write('new.txt', 'new\n');
    await repo.remove('gone.txt');
    const settings = { ignore: ['*.log'], maxFileSize: 1_000 };
    let fromEarly: Awaited<ReturnType<typeof createChangeSet>> | undefined;
    let stageDir = '';
    const { left, gits } = await withLoggedGit(async () => {
      const stage = startEarlyStage(repo.root);
      expect(stage).toBeDefined();
      stageDir = stage!.dir;
      fromEarly = await startChangeSet(repo.root, stage).finish(settings);
    });
    // Taken over: one snapshot git add, the stage's, and the repository still located. Not which git logged first: the
    // stage's add is started first, but the two shims' lines race, and their order says only how they were scheduled.
    expect(gits.filter(isSnapshotAdd)).toHaveLength(1);
    expect(gits.some((argv) => argv.startsWith('rev-parse --show-toplevel'))).toBe(true);
    expect(left).toEqual([]);
    expect(existsSync(stageDir)).toBe(false);
    const direct = await createChangeSet({ cwd: repo.root, ...settings });
    expect(fromEarly!.files).toEqual(direct.files);
    expect(fromEarly!.ignored).toEqual(['b.log']);
    expect(fromEarly!.fingerprint).toBe(direct.fingerprint);
    expect(fromEarly!.base).toEqual(direct.base);
    expect(await fromEarly!.readText('a.txt')).toBe('a2\n');
  });

  test('begun for another work tree: dropped (folder removed), and the snapshot is taken of this one', async () => {
    const here = await repoWith({ 'a.txt': 'a\n' });
    const elsewhere = await repoWith({ 'other.txt': 'o\n' });
    await here.write('a.txt', 'edited\n');
    await elsewhere.write('other.txt', 'elsewhere edit\n');
    let stageDir = '';
    let files: string[] = [];
    const { left, gits } = await withLoggedGit(async () => {
      const stage = startEarlyStage(elsewhere.root);
      stageDir = stage!.dir;
      const changeSet = await startChangeSet(here.root, stage).finish({});
      files = changeSet.files.map((file) => file.path);
    });
    expect(files).toEqual(['a.txt']);
    // The snapshot's git add, and the stage's own unless it was stopped before git started.
    expect(gits.filter(isSnapshotAdd).length).toBeGreaterThanOrEqual(1);
    expect(gits.filter(isSnapshotAdd).length).toBeLessThanOrEqual(2);
    expect(existsSync(stageDir)).toBe(false);
    expect(left).toEqual([]);
  });

  test('cancelled with its change set: git add stopped or done, folder removed', async () => {
    const repo = await repoWith({ 'a.txt': 'a\n' });
    await repo.write('a.txt', 'edited\n');
    let stageDir = '';
    const { left } = await withLoggedGit(async () => {
      const stage = startEarlyStage(repo.root);
      stageDir = stage!.dir;
      const started = startChangeSet(repo.root, stage);
      started.cancel();
      await started.staged;
      await stage!.close();
    });
    expect(existsSync(stageDir)).toBe(false);
    expect(left).toEqual([]);
  });

  test('outside a repository there is nothing to begin', async () => {
    const folder = await tempDir('tollgate-no-repo-');
    onCleanup(() => removeDir(folder));
    expect(startEarlyStage(folder)).toBeUndefined();
  });
});
