import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

describe('hooks.stop.run: true with the default validators (built CLI)', () => {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': 'hooks:\n  stop:\n    run: true\n' } });
  });
  afterEach(() => repo.cleanup());

  const stop = () =>
    runCli(['hook', 'stop', '--agent', 'claude'], {
      cwd: repo.root,
      env: repo.env,
      input: JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', cwd: repo.root }),
    });

  test('a clean change passes: the hook runs every default-enabled validator, so the run can stand as a pass', async () => {
    await repo.write('notes.txt', 'a clean change\n');
    const result = await stop();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('{}');
  });

  test('a change with a secret is blocked by that run, naming the finding', async () => {
    await repo.write('config.js', `const token = 'ghp_${'A1b2C3d4E5f6G7h8I9j0'}${'K1l2M3n4O5p6'}Qr';\n`);
    const result = await stop();
    expect(result.exitCode).toBe(0);
    const decision = JSON.parse(result.stdout);
    expect(decision.decision).toBe('block');
    expect(decision.reason).not.toMatch(/still need a run/);
    expect(decision.reason).toMatch(/secret|token/i);
  });

  test("an edit hidden from git status by assume-unchanged is never allowed from the fast path's stamp", async () => {
    await repo.write('notes.txt', 'committed\n');
    await repo.commit('notes');
    await repo.write('extra.txt', 'a clean change\n');
    const past = new Date(Date.now() - 60_000);
    for (const path of ['notes.txt', 'extra.txt', 'tollgate.config.yaml'])
      utimesSync(join(repo.root, path), past, past);
    await repo.git('update-index', '--assume-unchanged', 'notes.txt');
    // The first stop runs the validators on the change; the second answers from the state and saves the fast path's
    // stamp.
    expect((await stop()).stdout.trim()).toBe('{}');
    expect((await stop()).stdout.trim()).toBe('{}');
    // `git status` does not look at a flagged entry's file at all: only the full path's snapshot sees the edit.
    await repo.write('notes.txt', `const token = 'ghp_${'A1b2C3d4E5f6G7h8I9j0'}${'K1l2M3n4O5p6'}Qr';\n`);
    utimesSync(join(repo.root, 'notes.txt'), past, past);
    expect(await repo.git('status', '--porcelain')).toBe('?? extra.txt\n');
    const result = await stop();
    expect(JSON.parse(result.stdout).decision).toBe('block');
  });
});
