import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { cloneFull, copyClone, gitAuthEnv, stripUserInfo } from './clone.js';
import { createRedactor } from './mask.js';

const TOKEN = 'tok_0123456789abcdefghijklmnop';
let repo: TempRepo;
let dir: string;

beforeAll(async () => {
  repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
  await repo.git('checkout', '--quiet', '-b', 'topic');
  await repo.write('b.txt', 'two\n');
  await repo.commit('topic work');
  await repo.git('checkout', '--quiet', 'main');
  dir = await tempDir('tollgate-clone-');
});
afterAll(async () => {
  await repo.cleanup();
  await removeDir(dir);
});

test.each([
  ['https://x-access-token:abc@github.com/o/r.git', 'https://github.com/o/r.git'],
  ['https://github.com/o/r.git', 'https://github.com/o/r.git'],
  ['/local/path', '/local/path'],
])('stripUserInfo(%j) → %j', (url, expected) => {
  expect(stripUserInfo(url)).toBe(expected);
});

test('the token rides in env-provided config (http.extraHeader), helpers and auto gc are off, inherited GIT_DIR dropped', () => {
  const env = gitAuthEnv({ PATH: '/bin', GIT_DIR: '/elsewhere', GIT_CONFIG_GLOBAL: '/g' }, TOKEN);
  expect(env).toEqual({
    PATH: '/bin',
    GIT_CONFIG_GLOBAL: '/g',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_COUNT: '4',
    GIT_CONFIG_KEY_0: 'credential.helper',
    GIT_CONFIG_VALUE_0: '',
    GIT_CONFIG_KEY_1: 'gc.auto',
    GIT_CONFIG_VALUE_1: '0',
    GIT_CONFIG_KEY_2: 'maintenance.auto',
    GIT_CONFIG_VALUE_2: 'false',
    GIT_CONFIG_KEY_3: 'http.extraHeader',
    GIT_CONFIG_VALUE_3: `Authorization: Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`,
  });
});

test('a full clone and its fast copy keep every branch, and no .git/config holds the token', async () => {
  const options = {
    env: gitAuthEnv(repo.env, TOKEN),
    redact: createRedactor({ credentials: [TOKEN] }),
    timeoutMs: timeBudget(30_000),
  };
  const shared = join(dir, 'shared');
  expect(await cloneFull(repo.root, shared, options)).toEqual({ ok: true });
  const copy = join(dir, 'ws', 'repo');
  expect(await copyClone(shared, copy, `https://x-access-token:${TOKEN}@github.com/o/r.git`, options)).toEqual({
    ok: true,
  });
  const branches = await new Promise<string>((resolve) => {
    import('node:child_process').then(({ execFile }) =>
      execFile('git', ['-C', copy, 'branch', '-a'], { env: repo.env }, (_e, out) => resolve(out)),
    );
  });
  expect(branches).toContain('remotes/origin/topic');
  for (const path of [join(shared, '.git/config'), join(copy, '.git/config')]) {
    expect(await readFile(path, 'utf8')).not.toContain(TOKEN);
  }
  expect(await readFile(join(copy, '.git/config'), 'utf8')).toContain('url = https://github.com/o/r.git');
});

test('a failed clone is a result with a masked one-line message, not an exception', async () => {
  const options = {
    env: gitAuthEnv(repo.env, TOKEN),
    redact: createRedactor({ credentials: [TOKEN] }),
    timeoutMs: timeBudget(30_000),
  };
  const result = await cloneFull(`https://x-access-token:${TOKEN}@127.0.0.1:9/o/r.git`, join(dir, 'nope'), options);
  expect(result.ok).toBe(false);
  expect(JSON.stringify(result)).not.toContain(TOKEN);
  expect(result).toMatchObject({ message: expect.stringMatching(/^git clone: /) });
});
