import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { removeDir, tempDir } from '../support/git-repo.js';
import { timeBudget } from '../support/time-budget.js';

/**
 * The runner runs the Action from its repository at the tag, as committed, and the pre-commit framework runs the same
 * bundle from its clone (pre-commit/tollgate.cjs): action/dist must be exactly what `npm run build:action` makes from
 * these sources, or a release would ship code nobody reviewed or tested.
 */
const root = join(import.meta.dirname, '../..');
const committed = join(root, 'action/dist');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => removeDir(dir))));

test('the committed prebuilt CLI (action/dist: the Action and the pre-commit hooks) is byte-equal to a fresh build of these sources', async () => {
  const fresh = await tempDir('tollgate-action-build-');
  dirs.push(fresh);
  const build = await runProcess(process.execPath, ['scripts/build-action.mjs', '--outdir', fresh], {
    cwd: root,
    env: process.env,
    timeoutMs: timeBudget(180_000),
  });
  expect(build.exitCode, build.stderr).toBe(0);
  const stale = 'action/dist is stale: run `npm run build:action` and commit action/dist';
  expect(readdirSync(committed).sort(), stale).toEqual(readdirSync(fresh).sort());
  for (const name of readdirSync(fresh)) {
    const same = readFileSync(join(committed, name)).equals(readFileSync(join(fresh, name)));
    expect(same, `${stale} (${name} differs)`).toBe(true);
  }
}, 240_000);
