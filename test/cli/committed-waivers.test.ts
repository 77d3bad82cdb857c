import { afterEach, describe, expect, test } from 'vitest';
import { parseCommittedWaivers } from '../../src/core/state/committed-waivers.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/** A team's shared decisions: tollgate.waivers.yaml, reviewed in a commit before it waives anything. */
let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

describe('tollgate.waivers.yaml', () => {
  test('waive --commit writes the file; it waives nothing until committed, then applies in every clone', async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml':
          'checks:\n  - name: lint\n    run: "echo \'warning: style\'; exit 1"\nwaivers:\n  allow: [low, medium, high]\n',
        'a.txt': 'a\n',
      },
    });
    await repo.write('a.txt', 'b\n');
    const failed = await runCli(['run', '--only', 'checks', '--format', 'json'], { cwd: repo.root, env: repo.env });
    const id = JSON.parse(failed.stdout).tools[0].findings[0].id as string;
    const waived = await runCli(['waive', id, '--reason', 'style only, tracked in #7', '--commit'], {
      cwd: repo.root,
      env: repo.env,
    });
    expect(waived.stdout).toContain(
      'to tollgate.waivers.yaml: the file is policy, so it applies once the edit is merged into the base',
    );
    expect(waived.exitCode).toBe(0);
    const uncommitted = await runCli(['run', '--only', 'checks'], { cwd: repo.root, env: repo.env });
    expect(uncommitted.exitCode).toBe(1);
    await repo.git('add', 'tollgate.waivers.yaml');
    await repo.git('commit', '-qm', 'waive the style check failure');
    // Merged into the base: then, and only then, it applies. A fetch alone moves no base a run here already pinned
    // (docs/gate.md, "The base"), so the person names the merged base, as a fresh clone would find it.
    await repo.publish();
    const committed = await runCli(['run', '--only', 'checks', '--base', 'origin/main'], {
      cwd: repo.root,
      env: repo.env,
    });
    expect(committed.exitCode).toBe(0);
    expect(committed.stdout).toContain('waived');
    const list = await runCli(['waive', '--list'], { cwd: repo.root, env: repo.env });
    expect(list.stdout).toContain(`${id}`);
    expect(list.stdout).toContain('[tollgate.waivers.yaml]');
  }, 60_000);

  test('a malformed file is one line per problem with line and column', () => {
    expect(() =>
      parseCommittedWaivers('waivers:\n  - finding: nothex\n    reason: x\n    by: Ann\n    at: now\n'),
    ).toThrow(/^tollgate\.waivers\.yaml:2:\d+ waivers\[0\]\.finding: /);
    try {
      parseCommittedWaivers('waivers:\n  - finding: nothex\n    reason: x\n    by: Ann\n    at: now\n');
    } catch (error) {
      expect((error as { details: string[] }).details.join('\n')).toMatch(
        /^tollgate\.waivers\.yaml:5:\d+ waivers\[0\]\.at: /m,
      );
    }
    expect(parseCommittedWaivers('waivers: []\n')).toEqual([]);
  });
});
