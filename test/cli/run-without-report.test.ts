import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp-home.js';

/**
 * A run whose work never settles (a scheduler deadlock: a validator waiting forever for a slot another holds) leaves
 * Node nothing to wait for, and Node then exits with code 0, as if the change had passed, having printed no report.
 * Simulated with a preload that makes every `rename` (each atomic write) wait forever: the command never finishes, and
 * the built CLI must say so and exit with its internal-error code, never 0. A validator whose own cache write waits
 * forever is ended by `validation.timeout`, kept short here so the run gets to its report.
 */
let repo: TempRepo;
let preloads: string;
beforeAll(async () => {
  repo = await createTempRepo({
    files: {
      'tollgate.config.yaml': 'checks:\n  - name: ok\n    run: "true"\nvalidation:\n  concurrency: 1\n  timeout: 3s\n',
      'a.txt': 'one\n',
    },
  });
  preloads = await tempDir('tollgate-preload-');
  await writeFile(
    join(preloads, 'never-settles.cjs'),
    "require('node:fs/promises').rename = () => new Promise(() => {});\n",
  );
});
afterAll(async () => {
  await repo.cleanup();
  await removeDir(preloads);
});

test('a run that never finished writes no report and exits 3 (internal error), never 0', async () => {
  await repo.write('a.txt', 'two\n');
  const out = await runCli(['run', '--format', 'json'], {
    cwd: repo.root,
    env: { ...repo.env, NODE_OPTIONS: `--require ${join(preloads, 'never-settles.cjs')}` },
  });
  expect(out.stdout).toBe('');
  expect(out.stderr).toContain('tollgate: internal error: `tollgate run` stopped before it finished');
  expect(out.exitCode).toBe(3);
}, 60_000);
