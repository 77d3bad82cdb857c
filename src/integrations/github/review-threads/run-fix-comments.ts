import { appendAll } from '../../../core/append-all.js';
import { TollgateError } from '../../../core/errors.js';
import { applyPlan } from './fix/apply-item.js';
import { type CommitFixesResult, commitFixes } from './fix/commit-fixes.js';
import { commitGroups } from './fix/commit-groups.js';
import { isPlan, planItem } from './fix/plan-item.js';
import { outcomeRecords, renderFixOutcome } from './fix/render.js';
import {
  type FixCommentsOptions,
  type FixCommentsResult,
  type FixStatus,
  type ItemContext,
  type ItemOutcome,
  type Modes,
  now,
} from './fix/types.js';
import { runUnresolve } from './fix/unresolve.js';
import { phaseAfterFix } from './lifecycle.js';
import { type FixPayload, fixPayloadSchema } from './payload-schemas.js';
import { readPayloadFile } from './read-payload.js';
import { loadReplyTemplate } from './reply-template.js';
import { formatPullRequest, type PullRequestRef } from './review-thread.js';
import { type OutcomeRecord, type ReviewState, readReviewState, samePr, updateReviewState } from './state.js';
import { resolveRepository } from './target.js';

export type { FixCommentsOptions, FixCommentsResult } from './fix/types.js';

/**
 * `tollgate fix-comments`: dry run by default; with `--apply*`, posts the replies and resolves the threads the
 * policy allows, re-reading each thread just before each mutation. Never edits code; commits and pushes only the
 * payload's named files with `--commit`/`--push`, after the branch and tree checks. Never approves,
 * merges or resolves anything the payload did not name. Plan (policy) → apply (mutations) → record and render.
 */
export async function runFixComments(options: FixCommentsOptions): Promise<FixCommentsResult> {
  if (!options.config.enabled) {
    throw new TollgateError(
      'config',
      'reviewComments.enabled is false: nothing posted or resolved; set it to true to use fix-comments',
    );
  }
  if (options.unresolve !== undefined) return runUnresolve(options, options.unresolve);
  if (!options.payload) {
    throw new TollgateError('usage', 'tollgate fix-comments: expected --payload FILE (or --unresolve THREAD)');
  }
  const modes = chooseModes(options);
  const { payload: given, label, repository, pr, state, scan } = await loadRun(options, options.payload);
  const template = await loadReplyTemplate({ repoRoot: options.repoRoot, configured: options.config.replyTemplate });
  const needsGithub = !modes.dryRun || options.detached;
  const client = needsGithub ? await options.connect(repository) : null;
  const { committed, payload } =
    options.commit && client
      ? await commitPayloadFiles(options, { client, repository, pr, payload: given, label })
      : { committed: null, payload: given };
  const context: ItemContext = {
    options,
    modes,
    pr,
    state,
    template,
    client,
    scanCheckedAt: scan?.checkedAt ?? null,
    ledger: { replies: [], resolutions: [] },
  };

  const outcomes: ItemOutcome[] = [];
  const records: OutcomeRecord[] = [];
  for (const item of payload.items) {
    const stored = scan?.threads.find((thread) => thread.threadId === item.threadId);
    const planned = await planItem(context, { item, stored, scanHead: scan?.headRefOid ?? null });
    const outcome = !isPlan(planned)
      ? planned
      : modes.dryRun
        ? planned.outcome(planned.reply, planned.resolve)
        : await applyPlan(context, planned);
    outcomes.push(outcome);
    records.push(...outcomeRecords(outcome, pr, now(options)));
  }

  const failed = outcomes.filter((o) => o.reply.status === 'failed' || o.resolve.status === 'failed').length;
  const blockedReasons = outcomes.flatMap((o) =>
    [o.reply, o.resolve].flatMap((step) => (step.status === 'blocked' ? [step.reason] : [])),
  );
  const status: FixStatus =
    failed > 0 ? 'failed' : blockedReasons.length > 0 ? 'blocked' : modes.dryRun ? 'dry_run' : 'applied';
  if (!modes.dryRun) {
    const humanDecisions = outcomes.filter((o) =>
      [o.reply, o.resolve].some((step) => step.status === 'blocked' && step.humanDecision),
    ).length;
    const checksPassed = scan ? (await options.evidence.forHead(scan.headRefOid)).status === 'passed' : false;
    await recordApplied(context, { records, failed, humanDecisions, blockedReasons, checksPassed });
  }

  const text = options.json
    ? `${JSON.stringify({ pr, status, dryRun: modes.dryRun, ...(committed ? { committed } : {}), items: outcomes }, null, 2)}\n`
    : renderFixOutcome({ pr, status, modes, outcomes, committed });
  return {
    text: options.redact(text),
    exitCode: status === 'failed' || status === 'blocked' ? 1 : 0,
    status,
    mutationsSent: client?.mutationsSent ?? 0,
  };
}

interface CommitRequest {
  client: NonNullable<ItemContext['client']>;
  repository: Awaited<ReturnType<typeof resolveRepository>>;
  pr: PullRequestRef;
  payload: FixPayload;
  label: string;
}

/** `--commit`: commits (and with `--push` pushes) the payload's named files; each item then carries its commit. */
async function commitPayloadFiles(
  options: FixCommentsOptions,
  { client, repository, pr, payload, label }: CommitRequest,
): Promise<{ committed: CommitFixesResult; payload: FixPayload }> {
  const groups = commitGroups(payload.items, pr.number);
  if (groups.length === 0) {
    throw new TollgateError(
      'usage',
      `--commit: no valid item of ${label} lists files without a commitSha, so there is nothing to commit; add the changed paths as files, or drop --commit`,
    );
  }
  const committed = await commitFixes({
    repoRoot: options.repoRoot,
    env: options.env,
    client,
    repository,
    prNumber: pr.number,
    groups,
    push: Boolean(options.push),
    label,
  });
  const shaOf = new Map(committed.commits.flatMap((commit) => commit.threadIds.map((id) => [id, commit.sha])));
  return {
    committed,
    payload: {
      ...payload,
      items: payload.items.map((item) => ({ ...item, commitSha: shaOf.get(item.threadId) ?? item.commitSha })),
    },
  };
}

function chooseModes(options: FixCommentsOptions): Modes {
  const explicitReplies = Boolean(options.apply || options.applyReplies);
  const explicitResolutions = Boolean(options.apply || options.applyResolutions);
  if (options.dryRun && (explicitReplies || explicitResolutions)) {
    throw new TollgateError(
      'usage',
      '--dry-run: cannot be combined with --apply, --apply-replies or --apply-resolutions',
    );
  }
  if (options.push && !options.commit) {
    throw new TollgateError(
      'usage',
      '--push sends the commits --commit makes; add --commit, or push your own commits with git push',
    );
  }
  if (options.commit && (options.dryRun || !(explicitReplies || explicitResolutions))) {
    throw new TollgateError(
      'usage',
      '--commit: a dry run changes nothing; add --apply (or --apply-replies / --apply-resolutions) to commit and reply',
    );
  }
  if (options.dryRun) return { replies: false, resolutions: false, dryRun: true, autoResolveMode: false };
  // Config auto modes switch a half on unless the user asked for only the other half explicitly.
  const replies = explicitReplies || (options.config.autoReply && !(options.applyResolutions && !options.apply));
  const resolutions = explicitResolutions || (options.config.autoResolve && !(options.applyReplies && !options.apply));
  return {
    replies,
    resolutions,
    dryRun: !replies && !resolutions,
    autoResolveMode: resolutions && !explicitResolutions,
  };
}

/** The payload, the PR it is for, and the scan it acts on (none in detached mode); every mismatch is a usage error. */
async function loadRun(options: FixCommentsOptions, file: string) {
  const { value: payload, label } = await readPayloadFile({
    file,
    cwd: options.cwd,
    schema: fixPayloadSchema,
    flag: '--payload',
  });
  checkDuplicates(payload, label);
  if (options.pr !== undefined && payload.prNumber !== undefined && options.pr !== payload.prNumber) {
    throw new TollgateError(
      'usage',
      `--pr ${options.pr} and ${label} prNumber ${payload.prNumber} disagree; nothing posted or resolved`,
    );
  }
  const state = await readReviewState(options.repoRoot);
  const repository = await resolveRepository(options);
  const prNumber = options.pr ?? payload.prNumber ?? (options.detached ? undefined : state.lastScan?.pr.number);
  if (prNumber === undefined) {
    throw new TollgateError(
      'usage',
      options.detached
        ? '--detached: name the PR with --pr N (or prNumber in the payload); detached mode acts only on that PR'
        : 'no scan to act on: run `tollgate comments` first (or pass --pr N with --detached)',
    );
  }
  const pr: PullRequestRef = { owner: repository.owner, name: repository.name, number: prNumber };
  const scan = options.detached ? null : usableScan(state, pr, payload, label);
  return { payload, label, repository, pr, state, scan };
}

function checkDuplicates(payload: FixPayload, label: string): void {
  const seen = new Set<string>();
  const problems: string[] = [];
  payload.items.forEach((item, index) => {
    if (seen.has(item.threadId)) {
      problems.push(
        `${label} items[${index}].threadId: ${JSON.stringify(item.threadId)} appears twice; keep one item per thread`,
      );
    }
    seen.add(item.threadId);
  });
  if (problems.length > 0) throw new TollgateError('usage', problems[0]!, problems.slice(1));
}

/** The last scan must be complete, for this PR, and list every payload thread; else nothing is done. */
function usableScan(state: ReviewState, pr: PullRequestRef, payload: FixPayload, label: string) {
  const scan = state.lastScan;
  if (!scan)
    throw new TollgateError('usage', 'no scan to act on: run `tollgate comments` first (or use --detached --pr N)');
  if (!samePr(scan.pr, pr)) {
    throw new TollgateError(
      'usage',
      `the last scan is of ${formatPullRequest(scan.pr)}, not ${formatPullRequest(pr)}; run \`tollgate comments --pr ${pr.number}\` first`,
    );
  }
  if (!scan.complete) {
    throw new TollgateError(
      'usage',
      `the last scan of ${formatPullRequest(pr)} was incomplete (stopped at --max-threads); rerun \`tollgate comments\` with a higher --max-threads`,
    );
  }
  const known = new Set(scan.threads.map((thread) => thread.threadId));
  const unknown = payload.items.map((item, index) => ({ item, index })).filter(({ item }) => !known.has(item.threadId));
  if (unknown.length > 0) {
    const lines = unknown.map(
      ({ item, index }) =>
        `${label} items[${index}].threadId: ${JSON.stringify(item.threadId)} is not in the last scan of ${formatPullRequest(pr)}; rerun \`tollgate comments\` (with --all or --include-outdated if it is resolved or outdated)`,
    );
    throw new TollgateError('usage', lines[0]!, lines.slice(1));
  }
  return scan;
}

interface AppliedSummary {
  records: OutcomeRecord[];
  failed: number;
  humanDecisions: number;
  blockedReasons: string[];
  checksPassed: boolean;
}

/** One state update for the whole run: the ledger, the history, resolved threads and the PR's lifecycle phase. */
async function recordApplied(context: ItemContext, summary: AppliedSummary): Promise<void> {
  const { options, pr, ledger } = context;
  await updateReviewState(options.repoRoot, (next) => {
    appendAll(next.replies, ledger.replies);
    appendAll(next.resolutions, ledger.resolutions);
    appendAll(next.history, summary.records);
    const resolvedNow = new Set(ledger.resolutions.map((r) => r.threadId));
    if (next.lastScan && samePr(next.lastScan.pr, pr)) {
      for (const thread of next.lastScan.threads) if (resolvedNow.has(thread.threadId)) thread.isResolved = true;
    }
    const lastScan = next.lastScan && samePr(next.lastScan.pr, pr) ? next.lastScan : null;
    const allResolved =
      lastScan?.complete === true &&
      !lastScan.narrowed &&
      lastScan.unresolvedThreadIds.every(
        (id) => resolvedNow.has(id) || lastScan.threads.some((t) => t.threadId === id && t.isResolved),
      );
    const lifecycle = phaseAfterFix(
      {
        dryRun: false,
        failed: summary.failed,
        humanDecisions: summary.humanDecisions,
        blockedReasons: summary.blockedReasons,
        checksPassed: summary.checksPassed,
        allResolved,
      },
      next.lifecycle,
    );
    if (lifecycle) next.lifecycle = { ...lifecycle, at: now(options), pr };
  });
}
