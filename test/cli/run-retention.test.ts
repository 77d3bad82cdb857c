import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

const CONFIG = `output:\n  keepRuns: 2\nchecks:\n  - name: value\n    run: grep -q good value.txt\n`;

describe('.tollgate/runs/ retention (output.keepRuns, built CLI)', () => {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'value.txt': 'start\n' } });
  });
  afterEach(() => repo.cleanup());

  const runs = () =>
    readdirSync(join(repo.root, '.tollgate/runs'))
      .filter((name) => !name.startsWith('.'))
      .sort();
  const run = () => runCli(['run', '--only', 'checks'], { cwd: repo.root, env: repo.env });

  test('keeps the newest runs and the one the state still stands on; prunes the rest', async () => {
    await repo.write('value.txt', 'good 1\n');
    expect((await run()).exitCode).toBe(0);
    const [passed] = runs();
    for (const n of [2, 3, 4]) {
      await repo.write('value.txt', `bad ${n}\n`);
      expect((await run()).exitCode).toBe(1);
    }
    const left = runs();
    // The two newest, and the passing run: the checks' last success, which a later skip would stand on.
    expect(left).toHaveLength(3);
    expect(left[0]).toBe(passed);
    const log = await runCli(['log', passed!], { cwd: repo.root, env: repo.env });
    expect(log.exitCode).toBe(0);

    await repo.write('value.txt', 'good 5\n');
    expect((await run()).exitCode).toBe(0);
    // Now the newest run is the last success: the old one is no longer referenced and goes.
    expect(runs()).toHaveLength(2);
    expect(runs()).not.toContain(passed);
  });
});
