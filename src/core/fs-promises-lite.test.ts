import { spawnSync } from 'node:child_process';
import * as real from 'node:fs/promises';
import { mkdtemp, rm as removeDir, symlink, writeFile as write } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import * as lite from './fs-promises-lite.js';

/** What a call gave: its value, or its error's code (both APIs must fail the same way too). */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await call();
    return { value };
  } catch (error) {
    return { code: (error as NodeJS.ErrnoException).code };
  }
}

describe('fs-promises-lite: the small bundles’ node:fs/promises answers as the promise API does', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tollgate-fs-lite-'));
    await write(join(dir, 'state.json'), '{"é": 1}\n');
    await real.mkdir(join(dir, 'runs', 'a'), { recursive: true });
    await symlink('state.json', join(dir, 'link'));
  });
  afterEach(() => removeDir(dir, { recursive: true, force: true }));

  test('reads, stats and lists as the promise API does, errors included', async () => {
    const path = (name: string) => join(dir, name);
    const pairs: Array<[() => Promise<unknown>, () => Promise<unknown>]> = [
      [() => lite.readFile(path('state.json'), 'utf8'), () => real.readFile(path('state.json'), 'utf8')],
      [() => lite.readFile(path('state.json')), () => real.readFile(path('state.json'))],
      [() => lite.readFile(path('missing')), () => real.readFile(path('missing'))],
      [() => lite.readFile(path('runs')), () => real.readFile(path('runs'))],
      [
        async () => (await lite.lstat(path('link'), { bigint: true })).mtimeNs,
        async () => (await real.lstat(path('link'), { bigint: true })).mtimeNs,
      ],
      [
        async () => (await lite.lstat(path('link'))).isSymbolicLink(),
        async () => (await real.lstat(path('link'))).isSymbolicLink(),
      ],
      [async () => (await lite.stat(path('link'))).isFile(), async () => (await real.stat(path('link'))).isFile()],
      [() => lite.lstat(path('missing')), () => real.lstat(path('missing'))],
      [async () => (await lite.readdir(dir)).sort(), async () => (await real.readdir(dir)).sort()],
      [
        async () =>
          (await lite.readdir(dir, { withFileTypes: true })).map((entry) => [entry.name, entry.isDirectory()]).sort(),
        async () =>
          (await real.readdir(dir, { withFileTypes: true })).map((entry) => [entry.name, entry.isDirectory()]).sort(),
      ],
      [() => lite.readdir(path('missing')), () => real.readdir(path('missing'))],
    ];
    for (const [mine, theirs] of pairs) expect(await outcome(mine)).toEqual(await outcome(theirs));
  });

  test.skipIf(process.platform === 'win32')('a FIFO is refused at once, never waited on', async () => {
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // No writer ever comes: the promise API's read would wait for one.
    expect(await outcome(() => lite.readFile(fifo, 'utf8'))).toEqual({ code: 'EAGAIN' });
  });

  test('removes, renames and writes', async () => {
    await lite.rename(join(dir, 'runs', 'a'), join(dir, 'runs', 'b'));
    expect(await real.readdir(join(dir, 'runs'))).toEqual(['b']);
    expect(await outcome(() => lite.rename(join(dir, 'none'), join(dir, 'other')))).toEqual({ code: 'ENOENT' });
    await lite.rm(join(dir, 'runs'), { recursive: true, force: true });
    await lite.rm(join(dir, 'runs'), { recursive: true, force: true }); // force: nothing there is no error
    expect(await outcome(() => lite.rm(join(dir, 'runs')))).toEqual({ code: 'ENOENT' });
    await lite.unlink(join(dir, 'link'));
    await lite.mkdir(join(dir, 'made', 'deep'), { recursive: true });
    await lite.writeFile(join(dir, 'made', 'deep', 'x'), 'x');
    const handle = await lite.open(join(dir, 'made', 'deep', 'x'), 'r');
    await handle.close();
    expect((await real.readdir(dir)).sort()).toEqual(['made', 'state.json']);
  });
});
