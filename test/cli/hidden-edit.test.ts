import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { hideEditFromGit } from '../support/hidden-edit.js';
import { runCli } from '../support/run-cli.js';

// An edit git's own stat check cannot see (same size, mtime put back, within the second git recorded the file:
// src/core/change-set/second-blind-entries.ts), made after a validated pass, through the built CLI: `git status`
// lists nothing, yet the repeat run's fast path does not answer from its saved pass, the full run's snapshot reads
// the file and finds the secret in it, and the stop hook blocks.
const TOKEN = fakeChecksumToken('ghp_', 'hidden-edit');
const SECRET_LINE = `export const token = "${TOKEN}";\n`;
const PLAIN_LINE = `export const token = "${'x'.repeat(TOKEN.length)}";\n`;
const ANSWERED = 'tollgate: fast path: answered from the saved result';
const BUDGET = 120_000;

describe('an edit hidden from git status (built CLI)', () => {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({
      files: { 'tollgate.config.yaml': 'checks:\n  - name: ok\n    run: "true"\n', 'app.ts': PLAIN_LINE },
    });
    await repo.publish();
    await repo.write('feature.ts', 'export const feature = 1;\n');
    await repo.commit('feature');
    // Files left alone a while, the index written after them: nothing racy, so git decides from stat data alone.
    const past = new Date(Date.now() - 60_000);
    for (const path of ['tollgate.config.yaml', 'app.ts', 'feature.ts']) utimesSync(join(repo.root, path), past, past);
    await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    await repo.git('update-index', '--refresh');
  });
  afterEach(async () => {
    await repo.cleanup();
  });
  const run = () => runCli(['run'], { cwd: repo.root, env: { ...repo.env, TOLLGATE_TRACE_FAST_PATH: '1' } });

  test(
    'is read by the snapshot: the run fails on the secret, the fast path does not answer, the stop hook blocks',
    async () => {
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await run()).exitCode).toBe(0);
      hideEditFromGit(repo.root, 'app.ts', SECRET_LINE);
      expect(await repo.git('status', '--porcelain')).toBe('');
      const after = await run();
      expect(after.stderr).not.toContain(ANSWERED);
      expect(after.exitCode).not.toBe(0);
      expect(after.stdout).toMatch(/app\.ts/);
      expect(after.stdout).not.toContain(TOKEN);
      const stop = await runCli(['hook', 'stop', '--agent', 'claude'], {
        cwd: repo.root,
        env: repo.env,
        input: JSON.stringify({ session_id: 'hidden', cwd: repo.root, hook_event_name: 'Stop' }),
      });
      expect(JSON.parse(stop.stdout).decision).toBe('block');
    },
    BUDGET,
  );

  test(
    'a first run on such an edit reads it too',
    async () => {
      hideEditFromGit(repo.root, 'app.ts', SECRET_LINE);
      expect(await repo.git('status', '--porcelain')).toBe('');
      const first = await run();
      expect(first.exitCode).not.toBe(0);
      expect(first.stdout).toMatch(/app\.ts/);
    },
    BUDGET,
  );

  test(
    'a split index, which the snapshot reads only after git wrote its own copy whole: the edit is read too',
    async () => {
      hideEditFromGit(repo.root, 'app.ts', SECRET_LINE);
      // Split after the edit: git moves the entries, stat data and all, into a shared file that the index links to.
      await repo.git('update-index', '--split-index');
      expect(await repo.git('status', '--porcelain')).toBe('');
      const first = await run();
      expect(first.exitCode).not.toBe(0);
      expect(first.stdout).toMatch(/app\.ts/);
      expect(first.stdout).not.toContain(TOKEN);
    },
    BUDGET,
  );

  test(
    'after passes in a split index (no fast path there): the run reads the edit and fails',
    async () => {
      await repo.git('update-index', '--split-index');
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await run()).exitCode).toBe(0);
      // No evidence is saved for an index the walk cannot read whole, so the fast path never answers here.
      expect((await run()).stderr).toContain('no saved result to repeat');
      // The helper edits a whole index: join it, hide the edit, split it again (entries keep their stat data).
      await repo.git('update-index', '--no-split-index');
      hideEditFromGit(repo.root, 'app.ts', SECRET_LINE);
      await repo.git('update-index', '--split-index');
      expect(await repo.git('status', '--porcelain')).toBe('');
      const after = await run();
      expect(after.stderr).not.toContain(ANSWERED);
      expect(after.exitCode).not.toBe(0);
      expect(after.stdout).toMatch(/app\.ts/);
    },
    BUDGET,
  );
});
