import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * `tollgate log` shows what the report showed. A check that writes a file changes the tree during the run, so every
 * pass becomes INCOMPLETE after the calls logged their own answers; an edited config is a pending policy edit, a
 * result no call produced. The log replays the run's final results, not the calls' first answers.
 */
describe('tollgate log replays the statuses of the report (built CLI)', () => {
  let repo: TempRepo;
  let report: { verdict: string; tools: Array<{ name: string; status: string; findings: unknown[] }> };
  let log: string;

  beforeAll(async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': 'checks:\n  - name: writes-a-file\n    run: echo more >> written-by-check.txt\n',
        'a.txt': 'a\n',
      },
    });
    await repo.publish();
    await repo.write('a.txt', 'b\n');
    await repo.write(
      'tollgate.config.yaml',
      'checks:\n  - name: writes-a-file\n    run: echo more >> written-by-check.txt\n# edited\n',
    );
    const run = await runCli(['run', '--skip', 'code_review', '--format', 'json'], { cwd: repo.root, env: repo.env });
    report = JSON.parse(run.stdout);
    log = (await runCli(['log'], { cwd: repo.root, env: repo.env })).stdout;
  }, 120_000);
  afterAll(() => repo.cleanup());

  test('the run is one whose tree changed under it, with a pending policy edit', () => {
    expect(report.verdict).toBe('failed');
    expect(report.tools.find((tool) => tool.name === 'checks')?.status).toBe('incomplete');
    expect(report.tools.find((tool) => tool.name === 'policy')?.status).toBe('failed');
  });

  test('every validator of the report is in the log with the status the report gave it', () => {
    const logged = Object.fromEntries(
      [...log.matchAll(/^ {2}([a-z_]+) +([a-z_]+) /gm)].map((match) => [match[1], match[2]]),
    );
    expect(logged).toEqual(Object.fromEntries(report.tools.map((tool) => [tool.name, tool.status])));
    expect(log).toMatch(/^run \S+: failed in /);
    expect(log).toContain('the files changed while tollgate ran (written-by-check.txt)');
    expect(log).toContain('Policy edit not applied: tollgate.config.yaml (edited)');
  });
});
