import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createScenario, passingEvidence, redact, type Scenario } from '../../../../test/fakes/github/scenario.js';
import { addThread, comment, type FakeThread, mutationsOf } from '../../../../test/fakes/github/world.js';
import { fakeToken } from '../../../secrets/sample-tokens.js';
import type { EvidenceSource } from './check-evidence.js';
import type { FixItem } from './payload-schemas.js';
import { runComments } from './run-comments.js';
import { type FixCommentsOptions, runFixComments } from './run-fix-comments.js';
import { readReviewState, reviewStatePath } from './state.js';

let scenario: Scenario;
beforeEach(async () => {
  scenario = await createScenario();
});
afterEach(async () => {
  await scenario.cleanup();
});

const NOW = () => new Date('2026-06-02T00:00:00Z');

async function scan(triage?: Array<{ threadId: string; classification: string; human?: boolean }>, extra = {}) {
  let triagePayload: string | undefined;
  if (triage) {
    triagePayload = join(scenario.repo.root, 'triage.json');
    const threads = triage.map(({ threadId, classification, human }) => ({
      threadId,
      classification,
      confidence: 0.8,
      reason: 'checked against the code',
      recommendedAction: 'see reason',
      filesToInspect: [],
      filesToChange: [],
      checksToRun: [],
      replyBody: 'draft',
      canResolveAfterChecks: !(human || classification === 'needs_human'),
      requiresHumanDecision: Boolean(human || classification === 'needs_human'),
    }));
    await writeFile(triagePayload, JSON.stringify({ threads }));
  }
  return runComments({
    repoRoot: scenario.repo.root,
    cwd: scenario.repo.root,
    env: scenario.repo.env,
    config: scenario.config(extra),
    connect: scenario.connect,
    redact,
    pr: 7,
    triagePayload,
    now: () => new Date('2026-06-01T00:00:00Z'),
  });
}

async function fix(
  items: Array<Partial<FixItem> & { threadId: string }>,
  options: Partial<FixCommentsOptions> = {},
  configOverrides = {},
) {
  await writeFile(
    join(scenario.repo.root, 'fix.json'),
    JSON.stringify({
      prNumber: 7,
      items: items.map((item) => ({
        classification: 'valid',
        verification: [],
        checksRun: [],
        resolveRequested: false,
        ...item,
      })),
    }),
  );
  return runFixComments({
    repoRoot: scenario.repo.root,
    cwd: scenario.repo.root,
    env: scenario.repo.env,
    config: scenario.config(configOverrides),
    connect: scenario.connect,
    redact,
    evidence: passingEvidence,
    payload: 'fix.json',
    now: NOW,
    ...options,
  });
}

const validFix = (threadId: string): Partial<FixItem> & { threadId: string } => ({
  threadId,
  classification: 'valid',
  fixSummary: 'Bound the loop with <= so the last element is read.',
  verification: ['npm test: 212 passed'],
  checksRun: ['npm test'],
  commitSha: 'abc1234',
  resolveRequested: true,
});

function thread(body = 'Off by one.', extra: Partial<FakeThread> = {}) {
  return addThread(scenario.pr, { path: 'src/index.ts', line: 4, ...extra, comments: [comment({ body })] });
}

describe('tollgate fix-comments: dry run (the default)', () => {
  test('prints exactly what would be posted and resolved, mutates nothing and writes no state', async () => {
    const a = thread();
    const b = thread('Should this be public API?');
    await scan([
      { threadId: a.id, classification: 'valid' },
      { threadId: b.id, classification: 'needs_human' },
    ]);
    const before = await readFile(reviewStatePath(scenario.repo.root), 'utf8');
    const operations = scenario.world.operations.length;
    const result = await fix([
      validFix(a.id),
      { threadId: b.id, classification: 'needs_human', resolveRequested: true },
    ]);
    expect(
      result.text,
    ).toBe(`dry run for acme/widgets#7: nothing posted or resolved (apply with --apply-replies, --apply-resolutions or --apply)
${a.id}  src/index.ts:4  valid
  reply: would post
    | Fixed in \`abc1234\`.
    |
    | What changed:
    | - Bound the loop with <= so the last element is read.
    |
    | Verified:
    | - npm test: 212 passed
    |
    | If you disagree, reply here or reopen the thread.
    |
    | <!-- tollgate:review-reply v1 key=${/key=([0-9a-f]{16})/.exec(result.text)?.[1]} -->
  resolve: would resolve
${b.id}  src/index.ts:4  needs_human
  reply: blocked: needs_human: a person decides this thread; tollgate never replies to or resolves it
  resolve: blocked: needs_human: a person decides this thread; tollgate never replies to or resolves it
2 item(s): 1 reply would be posted, 1 thread(s) would be resolved, 1 blocked, 0 failed; status blocked
`);
    expect(result.mutationsSent).toBe(0);
    expect(scenario.world.operations.length).toBe(operations);
    expect(await readFile(reviewStatePath(scenario.repo.root), 'utf8')).toBe(before);
  });
});

describe('tollgate fix-comments --apply', () => {
  test('posts the reply, then resolves; a rerun (a new process, state from disk) does neither again', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    const first = await fix([validFix(a.id)], { apply: true });
    expect(first.status).toBe('applied');
    expect(mutationsOf(scenario.world).map((m) => m.name)).toEqual([
      'TollgateAddReviewThreadReply',
      'TollgateResolveReviewThread',
    ]);
    expect(a.isResolved).toBe(true);
    expect(a.comments.at(-1)?.body).toMatch(/^Fixed in `abc1234`\./);
    expect(a.comments.at(-1)?.body).not.toMatch(/resolved/i);
    const second = await fix([validFix(a.id)], { apply: true });
    expect(second.text).toContain('reply: skipped: already resolved on GitHub');
    expect(mutationsOf(scenario.world)).toHaveLength(2);
    const state = await readReviewState(scenario.repo.root);
    expect(state.lifecycle?.phase).toBe('verified');
    expect(JSON.stringify(state)).not.toContain('Bound the loop');
  });

  test('replies once per comment: no duplicate while ours is the latest, a new reply after new feedback', async () => {
    const a = thread();
    const item = { ...validFix(a.id), resolveRequested: false };
    await scan([{ threadId: a.id, classification: 'valid' }]);
    await fix([item], { applyReplies: true });
    await fix([item], { applyReplies: true });
    expect(mutationsOf(scenario.world)).toHaveLength(1);
    await scan([{ threadId: a.id, classification: 'valid' }]);
    expect((await fix([item], { applyReplies: true })).text).toContain(
      'reply: skipped: our earlier reply already answers the latest comment',
    );
    a.comments.push(comment({ body: 'Still wrong for empty arrays.' }));
    await scan([{ threadId: a.id, classification: 'valid' }]);
    const again = await fix([item], { applyReplies: true });
    expect(again.text).toMatch(/reply: posted PRRC_/);
    expect(mutationsOf(scenario.world)).toHaveLength(2);
  });

  test('a comment that arrives after the scan blocks the item (the thread is re-read before each mutation)', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    a.comments.push(comment({ body: 'Wait, one more thing.' }));
    const result = await fix([validFix(a.id)], { apply: true });
    expect(result.text).toContain(
      'reply: blocked: a new comment arrived since the scan; run `tollgate comments` again and re-triage this thread',
    );
    expect(result.text).toContain('resolve: blocked: the reply did not go out, so the thread stays open');
    expect(mutationsOf(scenario.world)).toEqual([]);
  });

  test('a comment that arrives between our reply and the resolution blocks the resolution', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    scenario.world.beforeMutation = (name) => {
      if (name === 'TollgateAddReviewThreadReply') {
        queueMicrotask(() => a.comments.push(comment({ body: 'Hmm, no.' })));
      }
    };
    const result = await fix([validFix(a.id)], { apply: true });
    expect(result.text).toContain('resolve: blocked: a new comment arrived since the scan');
    expect(a.isResolved).toBe(false);
  });

  test('a thread reopened after tollgate resolved it is not resolved again from an old scan', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    await fix([validFix(a.id)], { apply: true });
    a.isResolved = false;
    const state = await readReviewState(scenario.repo.root);
    expect(state.lastScan?.threads[0]?.isResolved).toBe(true);
    await scan([{ threadId: a.id, classification: 'valid' }]);
    // The fresh scan (older clock in this test) predates our resolution: still refused.
    const result = await fix([validFix(a.id)], { apply: true });
    expect(result.text).toContain('was reopened; run `tollgate comments` to triage it again');
  });

  test('GitHub saying "already resolved" is a success', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    scenario.world.answers.resolve = 'already_resolved';
    const result = await fix([validFix(a.id)], { apply: true });
    expect(result.text).toContain('resolve: already resolved');
    expect(result.status).toBe('applied');
  });

  test('a pending review of ours blocks replies (it would swallow them) and the resolution with them', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    scenario.pr.viewerPendingReview = true;
    const result = await fix([validFix(a.id)], { apply: true });
    expect(result.text).toContain('reply: blocked: you have a pending review on acme/widgets#7 (PRR_pending)');
    expect(mutationsOf(scenario.world)).toEqual([]);
  });

  test.each([
    [
      'viewerCanReply: false blocks the reply',
      { viewerCanReply: false },
      'GitHub says you may not reply to this thread (viewerCanReply: false)',
    ],
    [
      'viewerCanResolve: false blocks the resolution',
      { viewerCanResolve: false },
      'GitHub says you may not resolve this thread (viewerCanResolve: false)',
    ],
  ])('%s', async (_name, permissions, message) => {
    const a = thread('x', permissions);
    await scan([{ threadId: a.id, classification: 'valid' }]);
    expect((await fix([validFix(a.id)], { apply: true })).text).toContain(message);
    expect(a.isResolved).toBe(false);
  });

  test('a failed reply redacts its body from the error and moves the lifecycle to blocked', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    scenario.world.answers.reply = 'fail';
    const token = fakeToken('ghp_', 36);
    const result = await fix([{ ...validFix(a.id), fixSummary: `Rotated ${token} and fixed the bound.` }], {
      apply: true,
    });
    expect(result.status).toBe('failed');
    expect(result.exitCode).toBe(1);
    expect(result.text).toContain(
      'reply: failed: GitHub refused TollgateAddReviewThreadReply: Body could not be posted: <reply body>',
    );
    expect(result.text).not.toContain('Rotated');
    expect(result.text).not.toContain(token);
    const state = await readFile(reviewStatePath(scenario.repo.root), 'utf8');
    expect(state).not.toContain('Rotated');
    expect(JSON.parse(state).lifecycle.phase).toBe('blocked');
  });

  test('a resolution refused for lack of permission names contents: write', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    scenario.world.answers.resolve = 'forbidden';
    const result = await fix([validFix(a.id)], { apply: true });
    expect(result.text).toContain(
      'resolve: failed: GitHub refused TollgateResolveReviewThread: Resource not accessible by integration; resolving a review thread with a GitHub App or Actions token needs the `contents: write` permission as well as `pull_requests: write`',
    );
  });

  test('without a passing run on the pushed commit, payload evidence is refused for resolution; the reply still goes out', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    const noRun: EvidenceSource = {
      forHead: async () => ({
        status: 'missing',
        detail: 'no `tollgate run` is recorded for the pushed commit aaaaaaaaaaaa; run it',
      }),
      commitInHead: async () => 'yes',
    };
    const result = await fix([validFix(a.id)], { apply: true, evidence: noRun });
    expect(result.text).toMatch(/reply: posted/);
    expect(result.text).toContain(
      'resolve: blocked: checks: no `tollgate run` is recorded for the pushed commit aaaaaaaaaaaa; run it (reviewComments.requireChecksBeforeResolve; payload checksRun alone is not evidence)',
    );
    expect(a.isResolved).toBe(false);
    expect((await readReviewState(scenario.repo.root)).lifecycle?.phase).toBe('fixing_review_findings');
  });

  test('--apply-replies alone never resolves; --apply-resolutions alone never replies', async () => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    await fix([validFix(a.id)], { applyReplies: true });
    expect(mutationsOf(scenario.world).map((m) => m.name)).toEqual(['TollgateAddReviewThreadReply']);
    await scan([{ threadId: a.id, classification: 'valid' }]);
    await fix([validFix(a.id)], { applyResolutions: true });
    expect(mutationsOf(scenario.world).map((m) => m.name)).toEqual([
      'TollgateAddReviewThreadReply',
      'TollgateResolveReviewThread',
    ]);
  });
});

describe('tollgate fix-comments refuses to act', () => {
  test.each([
    [
      'when reviewComments.enabled is false',
      {},
      { enabled: false },
      'reviewComments.enabled is false: nothing posted or resolved; set it to true to use fix-comments',
    ],
    [
      'when --pr and the payload disagree',
      { pr: 8 },
      {},
      '--pr 8 and fix.json prNumber 7 disagree; nothing posted or resolved',
    ],
  ])('%s', async (_name, options, config, message) => {
    const a = thread();
    await scan([{ threadId: a.id, classification: 'valid' }]);
    await expect(fix([validFix(a.id)], { apply: true, ...options }, config)).rejects.toThrow(message);
    expect(mutationsOf(scenario.world)).toEqual([]);
  });

  test('when the last scan was incomplete', async () => {
    const a = thread();
    thread();
    await runComments({
      repoRoot: scenario.repo.root,
      cwd: scenario.repo.root,
      env: scenario.repo.env,
      config: scenario.config(),
      connect: scenario.connect,
      redact,
      pr: 7,
      maxThreads: 1,
    });
    await expect(fix([validFix(a.id)], { apply: true })).rejects.toThrow(
      'the last scan of acme/widgets#7 was incomplete (stopped at --max-threads); rerun `tollgate comments` with a higher --max-threads',
    );
  });

  test('when a thread is not in the last scan', async () => {
    const a = thread();
    await scan();
    await expect(fix([validFix('PRRT_elsewhere')], { apply: true })).rejects.toThrow(
      'fix.json items[0].threadId: "PRRT_elsewhere" is not in the last scan of acme/widgets#7',
    );
    expect(a.isResolved).toBe(false);
  });

  test('--detached acts only on threads of the named PR', async () => {
    const other = addThread(
      (() => {
        const pr = { ...scenario.pr, number: 8, threads: [] };
        scenario.world.pullRequests.push(pr);
        return pr;
      })(),
      { comments: [comment({ body: 'x' })] },
    );
    const result = await fix([validFix(other.id)], { apply: true, detached: true, pr: 7 });
    expect(result.text).toContain(
      `reply: blocked: review thread ${other.id} belongs to acme/widgets#8, not acme/widgets#7`,
    );
    expect(mutationsOf(scenario.world)).toEqual([]);
  });
});

describe('tollgate fix-comments --unresolve', () => {
  test('reopens a resolved thread of the PR and moves the lifecycle back to review_triage', async () => {
    const a = thread('x', { isResolved: true });
    const result = await runFixComments({
      repoRoot: scenario.repo.root,
      cwd: scenario.repo.root,
      env: scenario.repo.env,
      config: scenario.config(),
      connect: scenario.connect,
      redact,
      evidence: passingEvidence,
      unresolve: a.id,
      pr: 7,
      now: NOW,
    });
    expect(result.text).toBe(`unresolved ${a.id} on acme/widgets#7; run \`tollgate comments\` to triage it again\n`);
    expect(a.isResolved).toBe(false);
    expect((await readReviewState(scenario.repo.root)).lifecycle?.phase).toBe('review_triage');
  });
});

describe('no run ever resolves or replies to a needs_human thread', () => {
  const classification = fc.constantFrom('valid', 'invalid', 'stale', 'already_fixed', 'needs_human');
  const itemArbitrary = fc.record({
    classification,
    triaged: classification,
    resolveRequested: fc.boolean(),
    fixSummary: fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: undefined }),
    verification: fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 2 }),
    commitSha: fc.option(fc.constantFrom('abc1234', 'deadbeef'), { nil: undefined }),
    humanFlag: fc.boolean(),
  });

  test('for random payloads, triage and config, against the fake GitHub', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArbitrary, { minLength: 1, maxLength: 4 }),
        fc.subarray(['valid', 'invalid', 'stale', 'already_fixed'] as const),
        fc.boolean(),
        async (items, allowList, autoResolve) => {
          scenario.world.operations.length = 0;
          scenario.pr.threads.length = 0;
          const threads = items.map(() => thread());
          await scan(
            items.map((item, index) => ({
              threadId: threads[index]!.id,
              classification: item.triaged,
              human: item.humanFlag,
            })),
          );
          await fix(
            items.map((item, index) => ({
              threadId: threads[index]!.id,
              classification: item.classification,
              resolveRequested: item.resolveRequested,
              verification: item.verification,
              ...(item.fixSummary ? { fixSummary: item.fixSummary } : {}),
              ...(item.commitSha ? { commitSha: item.commitSha } : {}),
            })),
            { apply: true },
            { autoResolveClassifications: allowList, autoResolve },
          ).catch(() => null);
          const human = new Set(
            items.flatMap((item, index) =>
              item.classification === 'needs_human' || item.triaged === 'needs_human' || item.humanFlag
                ? [threads[index]!.id]
                : [],
            ),
          );
          for (const mutation of mutationsOf(scenario.world)) {
            expect(human.has(String(mutation.variables.threadId))).toBe(false);
          }
          for (const t of threads) if (human.has(t.id)) expect(t.isResolved).toBe(false);
        },
      ),
      { numRuns: 15 },
    );
  });
});
