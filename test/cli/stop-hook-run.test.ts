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
});
