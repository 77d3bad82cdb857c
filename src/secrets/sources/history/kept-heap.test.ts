import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../../test/support/git-repo.js';
import { KEPT_HEAP_TUNABLES, keptHeapEnv } from './kept-heap.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe("a long git pass's allocator keeps what it frees", () => {
  test('the thresholds are set where the caller tunes nothing, and the rest of env is kept', () => {
    const env = { PATH: '/bin', X: '1' };
    expect(keptHeapEnv(env)).toEqual({ PATH: '/bin', X: '1', GLIBC_TUNABLES: KEPT_HEAP_TUNABLES });
    expect(env).toEqual({ PATH: '/bin', X: '1' });
  });

  test("a caller's own malloc settings are left as they are", () => {
    const tuned = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' };
    expect(keptHeapEnv(tuned)).toBe(tuned);
    const legacy = { MALLOC_TRIM_THRESHOLD_: '0' };
    expect(keptHeapEnv(legacy)).toBe(legacy);
    const empty = { GLIBC_TUNABLES: '' };
    expect(keptHeapEnv(empty)).toBe(empty);
  });

  test("git's patch is byte for byte the same with the thresholds", async () => {
    repo = await createTempRepo();
    await repo.write('a.txt', `${'line\n'.repeat(50_000)}`);
    await repo.commit('one');
    await repo.write('a.txt', `${'line\nother\n'.repeat(40_000)}`);
    await repo.commit('two');
    const log = (env: NodeJS.ProcessEnv) =>
      spawnSync('git', ['log', '-p', '-U0', '--cc', '--no-renames', '--raw'], {
        cwd: repo!.root,
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
    const env = { PATH: process.env.PATH, HOME: repo.root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    const plain = log(env);
    const kept = log(keptHeapEnv(env));
    expect(plain.stderr.toString()).toBe('');
    expect(plain.status).toBe(0);
    expect(kept.status).toBe(0);
    expect(kept.stdout.equals(plain.stdout)).toBe(true);
    expect(kept.stdout.length).toBeGreaterThan(100_000);
  });
});
