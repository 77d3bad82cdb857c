import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { spawnLite } from './spawn-lite.js';

/**
 * spawn-lite.ts starts a child as child_process.spawn would (the same file found on PATH, argv, environment, folder
 * and descriptors) without loading child_process: what the child sees and what the caller gets back must be the same.
 */
const dir = mkdtempSync(join(tmpdir(), 'tollgate-spawn-lite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCRIPT = 'printf "%s|%s|%s|%s" "$0" "$1" "$(pwd)" "$SPAWN_LITE_VALUE"; printf err >&2; exit 7';

function throughLite(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: unknown; out: string }> {
  const path = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  const fd = openSync(path, 'w+');
  const started = spawnLite(file, args, { cwd: dir, env, stdio: ['ignore', fd, 'ignore'] });
  if (!started) throw new Error('spawn-lite is not available here');
  return started.then((code) => {
    closeSync(fd);
    return { code, out: readFileSync(path, 'utf8') };
  });
}

describe.skipIf(process.platform === 'win32')('spawnLite', () => {
  test('the child gets what child_process gives it: PATH lookup, argv, folder, environment; the exit code back', async () => {
    const env = { ...process.env, SPAWN_LITE_VALUE: 'it is "quoted" $HOME' };
    const args = ['-c', SCRIPT, 'zero', 'one two'];
    const lite = await throughLite('sh', args, env);
    const node = spawnSync('sh', args, { cwd: dir, env, encoding: 'utf8' });
    expect(lite).toEqual({ code: node.status, out: node.stdout });
    expect(lite.code).toBe(7);
  });

  test('a child ended by a signal resolves to null; one that cannot start to undefined', async () => {
    expect(await throughLite('sh', ['-c', 'kill -TERM $$'], process.env)).toEqual({ code: null, out: '' });
    expect(await throughLite('no-such-command-tollgate', [], process.env)).toEqual({ code: undefined, out: '' });
    expect((await throughLite('sh', ['-c', 'exit 0'], { PATH: '' })).code).toBe(undefined);
  });

  test('a NUL byte in an argument or the environment starts nothing (child_process reports it)', () => {
    const options = { cwd: dir, env: process.env, stdio: ['ignore', 'ignore'] as const };
    expect(spawnLite('sh', ['-c', 'true\0'], { ...options, stdio: [...options.stdio] })).toBeUndefined();
    expect(
      spawnLite('sh', ['-c', 'true'], { ...options, env: { A: 'x\0y' }, stdio: [...options.stdio] }),
    ).toBeUndefined();
  });
});
