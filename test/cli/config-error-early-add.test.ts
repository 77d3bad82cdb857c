import { existsSync } from 'node:fs';
import { chmod, readdir, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * `tollgate run` starts `git add` into its private index while it reads the config. On a big repository that add takes
 * seconds; a config error must not wait for it. A git wrapper makes every `add` take a minute: the run must still
 * fail at once with the one-line config error, and leave no temporary index (nor its lock) behind.
 */
let repo: TempRepo;
let wrapperDir: string;
let scratch: string;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'tollgate.config.yaml': 'validation: {\n', 'a.txt': 'one\n' } });
  wrapperDir = await tempDir('tollgate-slow-git-');
  scratch = await tempDir('tollgate-tmp-');
  const realGit = (await runProcess('sh', ['-c', 'command -v git'], { cwd: repo.root })).stdout.trim();
  // `sleep` runs in git's stead, in the same process group: stopping the add stops it too.
  const marker = join(wrapperDir, 'add-started');
  const wrapper = `#!/bin/sh\nfor arg in "$@"; do\n  if [ "$arg" = add ]; then : > ${JSON.stringify(marker)}; sleep 60; break; fi\ndone\nexec ${JSON.stringify(realGit)} "$@"\n`;
  await writeFile(join(wrapperDir, 'git'), wrapper);
  await chmod(join(wrapperDir, 'git'), 0o755);
});
afterEach(async () => {
  await repo.cleanup();
  await removeDir(wrapperDir);
  await removeDir(scratch);
});

test('a bad config ends the run at once: the early git add is stopped and its private index removed', async () => {
  await repo.write('a.txt', 'two\n');
  const env = { ...repo.env, PATH: `${wrapperDir}${delimiter}${repo.env.PATH ?? ''}`, TMPDIR: scratch };
  const started = performance.now();
  const result = await runCli(['run'], { cwd: repo.root, env, timeoutMs: 50_000 });
  const seconds = (performance.now() - started) / 1000;
  expect(result.exitCode).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toContain('tollgate.config.yaml');
  // Without the stop it waits out the add's minute; a loaded machine still starts node and git well within this.
  expect(seconds).toBeLessThan(30);
  expect(existsSync(join(wrapperDir, 'add-started'))).toBe(true);
  expect((await readdir(scratch)).filter((name) => name.startsWith('tollgate-index-'))).toEqual([]);
  expect(await repo.git('status', '--porcelain')).toBe(' M a.txt\n');
}, 60_000);
