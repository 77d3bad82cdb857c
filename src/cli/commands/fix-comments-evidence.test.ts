import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createScenario, type Scenario } from '../../../test/fakes/github/scenario.js';
import { addThread, comment, type FakeCheck, mutationsOf } from '../../../test/fakes/github/world.js';
import { registerComments } from './comments.js';
import { registerFixComments } from './fix-comments.js';

/**
 * `fix-comments --evidence remote`: the pushed head's GitHub check runs and statuses vouch for a resolution, for
 * teams whose tests run only in CI. Real GraphQL over HTTP against the fake GitHub (GitHub's own schema).
 */
let scenario: Scenario;
let output: string;
let head: string;
const sleeps: number[] = [];
let onSleep: () => void = () => {};

beforeEach(async () => {
  scenario = await createScenario();
  output = '';
  sleeps.length = 0;
  onSleep = () => {};
  head = (await scenario.repo.git('rev-parse', 'HEAD')).trim();
  scenario.pr.headRefOid = head;
});
afterEach(async () => {
  await scenario.cleanup();
  process.exitCode = undefined;
});

async function tollgate(...argv: string[]): Promise<number> {
  const program = new Command('tollgate').exitOverride();
  let clock = Date.parse('2026-06-01T00:00:00Z');
  const io = () => ({
    cwd: scenario.repo.root,
    env: scenario.repo.env,
    write: (text: string) => {
      output += text;
    },
    connect: () => scenario.connect(),
    sleep: async (ms: number) => {
      sleeps.push(ms);
      clock += ms;
      onSleep();
    },
    now: () => new Date(clock),
  });
  registerComments(program, io);
  registerFixComments(program, io);
  process.exitCode = undefined;
  await program.parseAsync(argv, { from: 'user' });
  return Number(process.exitCode ?? 0);
}

async function triagedValidThread(): Promise<string> {
  const thread = addThread(scenario.pr, {
    path: 'src/index.ts',
    line: 1,
    comments: [comment({ body: 'Off by one.' })],
  });
  expect(await tollgate('comments', '--pr', '7')).toBe(0);
  await writeFile(
    join(scenario.repo.root, 'fix.json'),
    JSON.stringify({
      prNumber: 7,
      items: [
        {
          threadId: thread.id,
          classification: 'valid',
          fixSummary: 'Bound the loop with <=.',
          verification: ['CI: unit tests'],
          checksRun: [],
          commitSha: head,
          resolveRequested: true,
        },
      ],
    }),
  );
  output = '';
  return thread.id;
}

const run = (name: string, status: string, conclusion: string | null): FakeCheck => ({
  kind: 'check_run',
  name,
  status,
  conclusion,
});

describe('tollgate fix-comments --evidence remote', () => {
  test('passing check runs and statuses on the pushed head let a valid thread resolve, with no local run', async () => {
    const threadId = await triagedValidThread();
    scenario.world.checks[head] = [
      run('unit tests', 'COMPLETED', 'SUCCESS'),
      { kind: 'status', context: 'ci/jenkins', state: 'SUCCESS' },
    ];
    expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply', '--evidence', 'remote')).toBe(0);
    expect(scenario.pr.threads.find((t) => t.id === threadId)?.isResolved).toBe(true);
    expect(scenario.world.operations.map((o) => o.name)).toContain('TollgateCommitChecks');
  });

  test('without it, the same thread is blocked: no local run vouches for the head', async () => {
    await triagedValidThread();
    scenario.world.checks[head] = [run('unit tests', 'COMPLETED', 'SUCCESS')];
    expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply')).toBe(1);
    expect(output).toMatch(/resolve: blocked: checks: .*no run vouches for the pushed commit/);
    expect(mutationsOf(scenario.world).map((m) => m.name)).not.toContain('TollgateResolveReviewThread');
  });

  test('a failed check blocks the resolution and is named; the reply still goes out', async () => {
    await triagedValidThread();
    scenario.world.checks[head] = [
      run('unit tests', 'COMPLETED', 'FAILURE'),
      { kind: 'status', context: 'ci/jenkins', state: 'SUCCESS' },
    ];
    expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply', '--evidence', 'remote')).toBe(1);
    expect(output).toContain(`GitHub checks did not pass on ${head.slice(0, 12)}: unit tests (failure)`);
    expect(mutationsOf(scenario.world).map((m) => m.name)).toEqual(['TollgateAddReviewThreadReply']);
  });

  test.each(['SKIPPED', 'NEUTRAL', 'STALE'])(
    'a head whose only check concluded %s does not resolve a valid thread: only SUCCESS passes',
    async (conclusion) => {
      const threadId = await triagedValidThread();
      scenario.world.checks[head] = [run('unit tests', 'COMPLETED', conclusion)];
      expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply', '--evidence', 'remote')).toBe(1);
      const word = conclusion.toLowerCase().replaceAll('_', ' ');
      expect(output).toContain(`GitHub checks did not pass on ${head.slice(0, 12)}: unit tests (${word})`);
      expect(scenario.pr.threads.find((t) => t.id === threadId)?.isResolved).toBe(false);
      expect(mutationsOf(scenario.world).map((m) => m.name)).not.toContain('TollgateResolveReviewThread');
    },
  );

  test('a skipped check beside a passing one still blocks: every reported check must have run and passed', async () => {
    await triagedValidThread();
    scenario.world.checks[head] = [run('unit tests', 'COMPLETED', 'SUCCESS'), run('lint', 'COMPLETED', 'SKIPPED')];
    expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply', '--evidence', 'remote')).toBe(1);
    expect(output).toContain('lint (skipped)');
  });

  test('--wait-checks polls until the running check completes, then resolves', async () => {
    const threadId = await triagedValidThread();
    scenario.world.checks[head] = [run('unit tests', 'IN_PROGRESS', null)];
    let polls = 0;
    onSleep = () => {
      polls++;
      if (polls === 2) scenario.world.checks[head] = [run('unit tests', 'COMPLETED', 'SUCCESS')];
    };
    const code = await tollgate(
      'fix-comments',
      '--payload',
      'fix.json',
      '--apply',
      '--evidence',
      'remote',
      '--wait-checks',
      '10m',
    );
    expect(code).toBe(0);
    expect(sleeps).toEqual([15_000, 15_000]);
    expect(scenario.pr.threads.find((t) => t.id === threadId)?.isResolved).toBe(true);
  });

  test('still running when the wait ends: incomplete, with how to wait', async () => {
    await triagedValidThread();
    scenario.world.checks[head] = [run('unit tests', 'QUEUED', null)];
    expect(
      await tollgate(
        'fix-comments',
        '--payload',
        'fix.json',
        '--apply',
        '--evidence',
        'remote',
        '--wait-checks',
        '20s',
      ),
    ).toBe(1);
    expect(sleeps).toEqual([15_000, 5_000]);
    expect(output).toContain('GitHub checks still running');
    expect(output).toContain('unit tests');
  });

  test('a commit with no checks at all is not evidence', async () => {
    await triagedValidThread();
    scenario.world.checks[head] = [];
    expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply', '--evidence', 'remote')).toBe(1);
    expect(output).toContain('GitHub reports no check runs or statuses');
  });

  test('--evidence either: the local run is asked first, then CI', async () => {
    const threadId = await triagedValidThread();
    scenario.world.checks[head] = [run('unit tests', 'COMPLETED', 'SUCCESS')];
    expect(await tollgate('fix-comments', '--payload', 'fix.json', '--apply', '--evidence', 'either')).toBe(0);
    expect(scenario.pr.threads.find((t) => t.id === threadId)?.isResolved).toBe(true);
  });

  test('a bad --evidence value is a one-line usage error', async () => {
    await expect(tollgate('fix-comments', '--payload', 'fix.json', '--evidence', 'ci')).rejects.toThrow(
      '--evidence: expected one of local, remote, either; got "ci"',
    );
  });
});
