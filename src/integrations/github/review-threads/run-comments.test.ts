import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createScenario, redact, type Scenario } from '../../../../test/fakes/github/scenario.js';
import { addThread, comment, mutationsOf } from '../../../../test/fakes/github/world.js';
import { fakeToken } from '../../../secrets/sample-tokens.js';
import { type CommentsOptions, runComments } from './run-comments.js';
import { readReviewState, reviewStatePath } from './state.js';

let scenario: Scenario;
beforeEach(async () => {
  scenario = await createScenario();
});
afterEach(async () => {
  await scenario.cleanup();
});

function comments(options: Partial<CommentsOptions> = {}) {
  return runComments({
    repoRoot: scenario.repo.root,
    cwd: scenario.repo.root,
    env: scenario.repo.env,
    config: scenario.config(),
    connect: scenario.connect,
    redact,
    now: () => new Date('2026-06-02T00:00:00Z'),
    pr: 7,
    ...options,
  });
}

describe('tollgate comments (read-only)', () => {
  test('lists unresolved, current threads by default, in a stable order, and never mutates', async () => {
    const { pr } = scenario;
    addThread(pr, { path: 'src/b.ts', line: 3, comments: [comment({ body: 'Rename this.' })] });
    addThread(pr, {
      path: 'src/a.ts',
      line: 9,
      comments: [comment({ body: 'Off by one here.', author: 'coderabbitai', authorType: 'Bot' })],
    });
    addThread(pr, { path: 'src/a.ts', isResolved: true, comments: [comment({ body: 'done' })] });
    addThread(pr, { path: 'src/c.ts', isOutdated: true, comments: [comment({ body: 'old' })] });
    const result = await comments();
    const ids = pr.threads.map((t) => t.id);
    expect(result.text).toBe(
      `acme/widgets#7: 2 unresolved review threads selected of 4 read (4 on the PR)
  ${ids[1]}  src/a.ts:9  @coderabbitai  1 comment
    "Off by one here."
  ${ids[0]}  src/b.ts:3  @alice  1 comment
    "Rename this."
lifecycle: review_triage (2 unresolved thread(s) to triage)
next: triage each thread against the current code into a payload (schemas/review-comment-triage.schema.json), then \`tollgate comments --triage-payload FILE\`
`,
    );
    expect(result.exitCode).toBe(0);
    expect(result.mutationsSent).toBe(0);
    expect(mutationsOf(scenario.world)).toEqual([]);
    const state = await readReviewState(scenario.repo.root);
    expect(state.lastScan?.threads.map((t) => t.threadId)).toEqual([ids[1], ids[0]]);
    expect(state.lastScan?.narrowed).toBe(true);
    expect(state.lifecycle?.phase).toBe('review_triage');
  });

  test('no unresolved threads: the lifecycle says so and what is next, not "triage each thread"', async () => {
    addThread(scenario.pr, { path: 'src/a.ts', isResolved: true, comments: [comment({ body: 'done' })] });
    const result = await comments({ includeOutdated: true });
    expect(result.text).toContain('lifecycle: review_triage (no unresolved threads)');
    expect(result.text).toContain(
      'next: no unresolved review threads: nothing to triage or fix; run `tollgate comments` again after new review comments arrive',
    );
    expect(result.text).not.toContain('triage each thread');
    addThread(scenario.pr, { path: 'src/c.ts', isOutdated: true, comments: [comment({ body: 'old' })] });
    const narrowed = await comments();
    expect(narrowed.text).toContain(
      'next: no unresolved thread matches the filters: run `tollgate comments` without --author/--path and with --include-outdated to check the rest',
    );
  });

  test.each([
    ['--all adds resolved threads', { all: true }, 3],
    ['--include-outdated adds outdated threads', { includeOutdated: true }, 3],
    ['--author matches any comment, case-insensitively, ignoring [bot]', { authors: ['CodeRabbitAI[bot]'] }, 1],
    ['--path takes globs', { paths: ['src/a*'] }, 1],
    ['--path takes folders', { paths: ['lib/'] }, 0],
  ])('%s', async (_name, options, count) => {
    const { pr } = scenario;
    addThread(pr, { path: 'src/b.ts', comments: [comment({ body: 'x' })] });
    addThread(pr, {
      path: 'src/a.ts',
      comments: [comment({ body: 'y' }), comment({ body: 'z', author: 'coderabbitai' })],
    });
    addThread(pr, { path: 'src/a.ts', isResolved: true, isOutdated: false, comments: [comment({ body: 'done' })] });
    addThread(pr, { path: 'src/c.ts', isOutdated: true, comments: [comment({ body: 'old' })] });
    const result = await comments({ ...options, json: true });
    expect(JSON.parse(result.text).selectedThreadCount).toBe(count);
  });

  test('pages many threads and long comment chains (real cursors), bodies over a megabyte included', async () => {
    const { pr } = scenario;
    const long = 'x'.repeat(30_000);
    for (let index = 0; index < 130; index++) {
      addThread(pr, { path: `src/f${String(index).padStart(3, '0')}.ts`, comments: [comment({ body: long })] });
    }
    const chatty = addThread(pr, {
      path: 'src/zz.ts',
      comments: Array.from({ length: 160 }, (_, index) => comment({ body: `comment ${index}` })),
    });
    const result = await comments({ json: true });
    const report = JSON.parse(result.text);
    expect(report.selectedThreadCount).toBe(131);
    expect(report.complete).toBe(true);
    const last = report.threads.find((thread: { threadId: string }) => thread.threadId === chatty.id);
    expect(last.comments).toHaveLength(160);
    expect(last.latestComment.body).toBe('comment 159');
    const names = scenario.world.operations.map((operation) => operation.name);
    expect(names.filter((name) => name === 'TollgateReviewThreads')).toHaveLength(2);
    expect(names.filter((name) => name === 'TollgateReviewThreadComments')).toHaveLength(2);
  });

  test('an incomplete scan (--max-threads hit) is blocked, exits 1, and is not an all-clear', async () => {
    for (let index = 0; index < 5; index++) addThread(scenario.pr, { comments: [comment({ body: `t${index}` })] });
    const result = await comments({ maxThreads: 3 });
    expect(result.exitCode).toBe(1);
    expect(result.text).toContain(
      'incomplete: stopped at --max-threads 3 before the last page; this is not an all-clear (raise --max-threads or reviewComments.maxThreads)',
    );
    expect(result.text).toContain('lifecycle: blocked');
    expect(result.text.split('\n').filter((line) => line.startsWith('next: '))).toEqual([
      'next: read the rest of the threads: tollgate comments --pr 7 --max-threads 6',
    ]);
    expect((await readReviewState(scenario.repo.root)).lastScan?.complete).toBe(false);
  });

  test('--dry-run reads GitHub but writes no state', async () => {
    addThread(scenario.pr, { comments: [comment({ body: 'x' })] });
    const result = await comments({ dryRun: true });
    expect(result.text).toContain('[dry run: state not written]');
    await expect(readFile(reviewStatePath(scenario.repo.root))).rejects.toThrow(/ENOENT/);
  });

  test('redacts secrets in every output, --json and the stored state included', async () => {
    const token = fakeToken('ghp_', 36);
    const aws = `AKIA${'QWERTYUIOPASDFGH'}`;
    addThread(scenario.pr, {
      comments: [comment({ body: `Do not commit ${token} or ${aws} here. tollgate:allow` })],
    });
    for (const json of [false, true]) {
      const result = await comments({ json });
      expect(result.text).not.toContain(token);
      expect(result.text).not.toContain(aws);
      expect(result.text).toContain('[REDACTED:');
    }
    const stored = await readFile(reviewStatePath(scenario.repo.root), 'utf8');
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(aws);
  });

  test('warns about a pending review of ours (it would swallow replies)', async () => {
    scenario.pr.viewerPendingReview = true;
    addThread(scenario.pr, { comments: [comment({ body: 'x' })] });
    expect((await comments()).text).toContain('warning: you have a pending (unsubmitted) review on this PR');
  });

  test('finds the PR of the current branch when neither --pr nor a stored scan names one', async () => {
    await scenario.repo.git('checkout', '-b', 'feature');
    addThread(scenario.pr, { comments: [comment({ body: 'x' })] });
    expect((await comments({ pr: undefined })).text).toMatch(/^acme\/widgets#7: 1 unresolved review thread selected/);
  });
});

describe('--triage-payload', () => {
  const triaged = (threadId: string, overrides: Record<string, unknown> = {}) => ({
    threadId,
    classification: 'valid',
    confidence: 0.9,
    reason: 'The loop skips the last element.',
    recommendedAction: 'Use <= in the bound.',
    filesToInspect: ['src/index.ts'],
    filesToChange: ['src/index.ts'],
    checksToRun: ['npm test'],
    replyBody: 'Fixed the bound.',
    canResolveAfterChecks: true,
    requiresHumanDecision: false,
    ...overrides,
  });

  async function withPayload(payload: unknown) {
    const file = join(scenario.repo.root, 'triage.json');
    await writeFile(file, JSON.stringify(payload));
    return comments({ triagePayload: 'triage.json' });
  }

  test('a valid triage moves the lifecycle to fixing_review_findings and is stored with the scan', async () => {
    const a = addThread(scenario.pr, { comments: [comment({ body: 'x' })] });
    const result = await withPayload({ threads: [triaged(a.id)] });
    expect(result.text).toContain('[valid]');
    expect(result.text).toContain('lifecycle: fixing_review_findings (1 valid finding(s) to fix)');
    const state = await readReviewState(scenario.repo.root);
    expect(state.lastScan?.threads[0]).toMatchObject({ classification: 'valid', requiresHumanDecision: false });
  });

  test('needs_human blocks the lifecycle and exits 1', async () => {
    const a = addThread(scenario.pr, { comments: [comment({ body: 'x' })] });
    const result = await withPayload({
      threads: [
        triaged(a.id, { classification: 'needs_human', requiresHumanDecision: true, canResolveAfterChecks: false }),
      ],
    });
    expect(result.exitCode).toBe(1);
    expect(result.text).toContain('lifecycle: blocked (1 thread(s) need a human decision)');
    expect(result.text.split('\n').filter((line) => line.startsWith('next: '))).toEqual([
      `next: a person must decide ${a.id} on GitHub (needs_human: tollgate never replies to or resolves them), then rerun: tollgate comments --pr 7`,
    ]);
  });

  test('rejects duplicates, unknown ids, omitted threads and resolvable human decisions, all at once', async () => {
    const a = addThread(scenario.pr, { comments: [comment({ body: 'x' })] });
    const b = addThread(scenario.pr, { comments: [comment({ body: 'y' })] });
    const error = await withPayload({
      threads: [
        triaged(a.id, { requiresHumanDecision: true, canResolveAfterChecks: true }),
        triaged(a.id),
        triaged('PRRC_123'),
      ],
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      message:
        'triage.json threads[0].canResolveAfterChecks: must be false when the thread requires a human decision; a person decides and resolves it',
      details: [
        `triage.json threads[1].threadId: "${a.id}" is triaged twice; keep one entry per thread`,
        'triage.json threads[2].threadId: "PRRC_123" is not among the 2 thread(s) this scan selected; triage only the threads listed (ids start with PRRT_, not comment ids)',
        `triage.json threads: omits 1 selected thread(s): "${b.id}"; triage every listed thread`,
      ],
    });
  });

  test('a shape error names the field and the allowed values', async () => {
    const a = addThread(scenario.pr, { comments: [comment({ body: 'x' })] });
    await expect(withPayload({ threads: [triaged(a.id, { classification: 'wontfix' })] })).rejects.toThrow(
      'triage.json threads[0].classification: expected one of "valid", "invalid", "stale", "already_fixed", "needs_human"',
    );
  });
});
