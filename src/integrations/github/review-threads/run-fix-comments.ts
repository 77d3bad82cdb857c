import { TollgateError } from '../../../core/errors.js';
import { GithubError, isGithubError } from '../github-error.js';
import type { GraphqlClient } from '../graphql-client.js';
import { ADD_THREAD_REPLY_MUTATION, RESOLVE_THREAD_MUTATION, UNRESOLVE_THREAD_MUTATION } from '../graphql-documents.js';
import type { RedactText } from '../redaction.js';
import type { GithubRepository } from '../repository.js';
import type { EvidenceSource } from './check-evidence.js';
import { type CheckEvidence, type CommitInHead, evaluateFixPolicy, needsHuman } from './fix-policy.js';
import { addReplySchema, threadResolutionSchema, threadUnresolutionSchema } from './graphql-shapes.js';
import { phaseAfterFix } from './lifecycle.js';
import { type Classification, type FixItem, type FixPayload, fixPayloadSchema } from './payload-schemas.js';
import { readPayloadFile } from './read-payload.js';
import { loadReplyTemplate, REPLY_MARKER_PATTERN, renderReply, replyKey } from './reply-template.js';
import { formatPullRequest, type PullRequestRef } from './review-thread.js';
import type { ReviewCommentsConfig } from './run-comments.js';
import {
  lastReplyTo,
  lastResolutionOf,
  type OutcomeRecord,
  type ReviewState,
  readReviewState,
  type StoredThread,
  samePr,
  updateReviewState,
} from './state.js';
import { resolveRepository } from './target.js';
import { readThreadSnapshot, type ThreadSnapshot } from './thread-snapshot.js';

export interface FixCommentsOptions {
  repoRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ReviewCommentsConfig;
  connect: (repository: GithubRepository) => Promise<GraphqlClient>;
  redact: RedactText;
  /** Check evidence for resolutions (the command passes `createRunEvidence`). */
  evidence: EvidenceSource;
  payload?: string | undefined;
  repo?: string | undefined;
  pr?: number | undefined;
  apply?: boolean;
  applyReplies?: boolean;
  applyResolutions?: boolean;
  dryRun?: boolean;
  detached?: boolean;
  /** `--unresolve THREAD`: undo a mistaken resolution. */
  unresolve?: string | undefined;
  json?: boolean;
  now?: () => Date;
}

export interface FixCommentsResult {
  text: string;
  exitCode: 0 | 1;
  status: FixStatus;
  mutationsSent: number;
}

export type FixStatus = 'applied' | 'dry_run' | 'blocked' | 'failed';

/** One half (reply or resolution) of one item, planned or done. */
export type Step =
  | { status: 'would_post'; body: string }
  | { status: 'posted'; commentId: string; url: string | null }
  | { status: 'would_resolve' }
  | { status: 'resolved' }
  | { status: 'already_resolved' }
  | { status: 'not_applied'; reason: string }
  | { status: 'skipped'; reason: string }
  | { status: 'blocked'; reason: string; humanDecision?: boolean }
  | { status: 'failed'; reason: string }
  | { status: 'not_requested' };

export interface ItemOutcome {
  threadId: string;
  classification: Classification;
  where: string;
  reply: Step;
  resolve: Step;
}

interface Modes {
  replies: boolean;
  resolutions: boolean;
  dryRun: boolean;
  autoResolveMode: boolean;
}

export function chooseModes(options: FixCommentsOptions): Modes {
  const explicitReplies = Boolean(options.apply || options.applyReplies);
  const explicitResolutions = Boolean(options.apply || options.applyResolutions);
  if (options.dryRun && (explicitReplies || explicitResolutions)) {
    throw new TollgateError(
      'usage',
      '--dry-run: cannot be combined with --apply, --apply-replies or --apply-resolutions',
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

/**
 * `tollgate fix-comments`: dry run by default; with `--apply*`, posts the replies and resolves the threads the
 * policy allows, re-reading each thread just before each mutation. Never edits code, commits, pushes, approves,
 * merges or resolves anything the payload did not name.
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
  const { value: payload, label } = await readPayloadFile({
    file: options.payload,
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
  const template = await loadReplyTemplate({ repoRoot: options.repoRoot, configured: options.config.replyTemplate });
  const needsGithub = !modes.dryRun || options.detached;
  const client = needsGithub ? await options.connect(repository) : null;
  const context: ItemContext = { options, modes, pr, state, template, client, scanCheckedAt: scan?.checkedAt ?? null };

  const outcomes: ItemOutcome[] = [];
  const records: OutcomeRecord[] = [];
  const ledger: Ledger = { replies: [], resolutions: [] };
  for (const item of payload.items) {
    const stored = scan?.threads.find((thread) => thread.threadId === item.threadId);
    const outcome = await handleItem(context, item, stored, scan?.headRefOid ?? null, ledger);
    outcomes.push(outcome);
    records.push(...outcomeRecords(outcome, pr, now(options)));
  }

  const failed = outcomes.filter((o) => o.reply.status === 'failed' || o.resolve.status === 'failed').length;
  const blockedReasons = outcomes.flatMap((o) =>
    [o.reply, o.resolve].flatMap((step) => (step.status === 'blocked' ? [step.reason] : [])),
  );
  const humanDecisions = outcomes.filter((o) =>
    [o.reply, o.resolve].some((step) => step.status === 'blocked' && step.humanDecision),
  ).length;
  const status: FixStatus =
    failed > 0 ? 'failed' : blockedReasons.length > 0 ? 'blocked' : modes.dryRun ? 'dry_run' : 'applied';

  if (!modes.dryRun) {
    const checksPassed = scan ? (await options.evidence.forHead(scan.headRefOid)).status === 'passed' : false;
    await updateReviewState(options.repoRoot, (next) => {
      next.replies.push(...ledger.replies);
      next.resolutions.push(...ledger.resolutions);
      next.history.push(...records);
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
        { dryRun: false, failed, humanDecisions, blockedReasons, checksPassed, allResolved },
        next.lifecycle,
      );
      if (lifecycle) next.lifecycle = { ...lifecycle, at: now(options), pr };
    });
  }

  const text = options.json
    ? `${JSON.stringify({ pr, status, dryRun: modes.dryRun, items: outcomes }, null, 2)}\n`
    : renderFixOutcome({ pr, status, modes, outcomes });
  return {
    text: options.redact(text),
    exitCode: status === 'failed' || status === 'blocked' ? 1 : 0,
    status,
    mutationsSent: client?.mutationsSent ?? 0,
  };
}

interface ItemContext {
  options: FixCommentsOptions;
  modes: Modes;
  pr: PullRequestRef;
  state: ReviewState;
  template: Awaited<ReturnType<typeof loadReplyTemplate>>;
  client: GraphqlClient | null;
  scanCheckedAt: string | null;
}

interface Ledger {
  replies: ReviewState['replies'];
  resolutions: ReviewState['resolutions'];
}

function now(options: FixCommentsOptions): string {
  return (options.now ?? (() => new Date()))().toISOString();
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

async function handleItem(
  context: ItemContext,
  item: FixItem,
  stored: StoredThread | undefined,
  scanHead: string | null,
  ledger: Ledger,
): Promise<ItemOutcome> {
  const { options, modes, state, client, pr } = context;
  const where = stored?.path ? `${stored.path}${stored.line ? `:${stored.line}` : ''}` : '';
  const outcome = (reply: Step, resolve: Step): ItemOutcome => ({
    threadId: item.threadId,
    classification: item.classification,
    where,
    reply,
    resolve,
  });
  const notRequested: Step = { status: 'not_requested' };

  // Detached mode has no scan: read the thread first (also binds it to the PR), in a dry run too.
  let detachedSnapshot: ThreadSnapshot | null = null;
  if (options.detached && client) {
    try {
      detachedSnapshot = await readThreadSnapshot(client, item.threadId, pr);
    } catch (error) {
      const reason = failureReason(error, options.redact);
      return outcome(
        { status: 'blocked', reason },
        item.resolveRequested ? { status: 'blocked', reason } : notRequested,
      );
    }
  }
  const head = scanHead ?? detachedSnapshot?.headRefOid ?? null;
  if (stored?.isResolved || detachedSnapshot?.isResolved) {
    const reason = 'already resolved on GitHub';
    return outcome(
      { status: 'skipped', reason },
      item.resolveRequested ? { status: 'already_resolved' } : notRequested,
    );
  }

  const wantsResolution = item.resolveRequested && !needsHuman(item, stored);
  const evidence: CheckEvidence =
    wantsResolution && options.config.requireChecksBeforeResolve && head
      ? await options.evidence.forHead(head)
      : { status: 'unknown', detail: 'not looked up' };
  const commitInHead: CommitInHead =
    wantsResolution && item.classification === 'valid' && item.commitSha && head
      ? await options.evidence.commitInHead(item.commitSha, head)
      : 'unknown';
  const decision = evaluateFixPolicy({
    item,
    stored,
    config: options.config,
    autoResolveMode: modes.autoResolveMode,
    evidence,
    commitInHead,
  });

  // Idempotency from the ledger on disk: never resolve twice, never answer the same comment twice.
  const latestAtScan = stored?.latestCommentId ?? detachedSnapshot?.latestCommentId ?? null;
  const previousReply = lastReplyTo(state, item.threadId);
  const replyCovered =
    previousReply !== undefined &&
    latestAtScan !== null &&
    (previousReply.repliedToCommentId === latestAtScan || previousReply.commentId === latestAtScan);
  const previousResolution = lastResolutionOf(state, item.threadId);
  const reopenedSinceTriage =
    previousResolution !== undefined && context.scanCheckedAt !== null && context.scanCheckedAt > previousResolution.at;

  let replyStep: Step;
  if (!decision.reply.allowed) replyStep = { status: 'blocked', ...reasonOf(decision.reply) };
  else if (replyCovered)
    replyStep = { status: 'skipped', reason: 'our earlier reply already answers the latest comment' };
  else replyStep = { status: 'would_post', body: '' };

  let resolveStep: Step;
  if (!decision.resolve) resolveStep = notRequested;
  else if (!decision.resolve.allowed) resolveStep = { status: 'blocked', ...reasonOf(decision.resolve) };
  else if (previousResolution && !reopenedSinceTriage) {
    resolveStep = {
      status: 'blocked',
      reason: `tollgate resolved this thread at ${previousResolution.at} and it was reopened; run \`tollgate comments\` to triage it again`,
    };
  } else resolveStep = { status: 'would_resolve' };

  const key = replyKey({ threadId: item.threadId, latestCommentId: latestAtScan, item });
  if (replyStep.status === 'would_post') {
    try {
      replyStep = {
        status: 'would_post',
        body: renderReply({
          template: context.template,
          item,
          resolutionPlanned: resolveStep.status === 'would_resolve' && (modes.dryRun || modes.resolutions),
          key,
          redact: options.redact,
        }),
      };
    } catch (error) {
      replyStep = { status: 'blocked', reason: failureReason(error, options.redact) };
    }
  }

  if (modes.dryRun) return outcome(replyStep, resolveStep);

  // Apply: each half only in its mode; re-read before each mutation.
  let postedCommentId: string | null = null;
  if (replyStep.status === 'would_post') {
    if (!modes.replies) replyStep = { status: 'not_applied', reason: 'replies not applied (--apply-replies)' };
    else {
      replyStep = await postReply(context, item, replyStep.body, latestAtScan, key, ledger);
      if (replyStep.status === 'posted') postedCommentId = replyStep.commentId;
    }
  }
  if (resolveStep.status === 'would_resolve') {
    if (!modes.resolutions)
      resolveStep = { status: 'not_applied', reason: 'resolutions not applied (--apply-resolutions)' };
    else if (replyStep.status === 'failed' || (replyStep.status === 'blocked' && decision.reply.allowed)) {
      resolveStep = { status: 'blocked', reason: 'the reply did not go out, so the thread stays open' };
    } else {
      resolveStep = await resolveThread(context, item, latestAtScan, postedCommentId, head, ledger);
    }
  }
  return outcome(replyStep, resolveStep);
}

function reasonOf(decision: { allowed: false; reason: string; humanDecision?: boolean }) {
  return decision.humanDecision ? { reason: decision.reason, humanDecision: true } : { reason: decision.reason };
}

/** A comment by us carrying our marker, i.e. tollgate's own earlier reply. */
function isOurReply(comment: { viewerDidAuthor: boolean; body: string }): boolean {
  return comment.viewerDidAuthor && REPLY_MARKER_PATTERN.test(comment.body);
}

/**
 * The thread as GitHub has it now, read right before a mutation (never act on a stale scan); a Step when it cannot be
 * read.
 */
async function rereadThread(
  context: ItemContext,
  item: FixItem,
): Promise<{ client: GraphqlClient; snapshot: ThreadSnapshot } | Step> {
  const { client, pr, options } = context;
  if (!client) return { status: 'failed', reason: 'internal: no GitHub client' };
  try {
    return { client, snapshot: await readThreadSnapshot(client, item.threadId, pr) };
  } catch (error) {
    return { status: 'blocked', reason: failureReason(error, options.redact) };
  }
}

async function postReply(
  context: ItemContext,
  item: FixItem,
  body: string,
  latestAtScan: string | null,
  key: string,
  ledger: Ledger,
): Promise<Step> {
  const { pr, options } = context;
  const reread = await rereadThread(context, item);
  if ('status' in reread) return reread;
  const { client, snapshot } = reread;
  if (snapshot.isResolved) return { status: 'skipped', reason: 'resolved on GitHub since the scan' };
  if (!snapshot.canReply)
    return { status: 'blocked', reason: 'GitHub says you may not reply to this thread (viewerCanReply: false)' };
  if (snapshot.pendingReviewIds.length > 0) {
    return {
      status: 'blocked',
      reason: `you have a pending review on ${formatPullRequest(pr)} (${snapshot.pendingReviewIds[0]}); a reply would join it and stay invisible: submit or discard it on GitHub, then rerun`,
    };
  }
  const latest = snapshot.lastComments.at(-1);
  if (latest && isOurReply(latest)) {
    return { status: 'skipped', reason: 'our earlier reply is already the latest comment' };
  }
  if (latestAtScan !== null && snapshot.latestCommentId !== latestAtScan) {
    return {
      status: 'blocked',
      reason: 'a new comment arrived since the scan; run `tollgate comments` again and re-triage this thread',
    };
  }
  try {
    const answer = await client.request(ADD_THREAD_REPLY_MUTATION, { threadId: item.threadId, body }, addReplySchema);
    const comment = answer.addPullRequestReviewThreadReply?.comment;
    if (!comment) return { status: 'failed', reason: 'GitHub accepted the reply but returned no comment' };
    ledger.replies.push({
      threadId: item.threadId,
      pr,
      commentId: comment.id,
      url: comment.url,
      repliedToCommentId: snapshot.latestCommentId,
      key,
      at: now(options),
    });
    if (comment.state === 'PENDING') {
      return {
        status: 'failed',
        reason: `the reply ${comment.id} joined a pending review and is invisible; submit that review on GitHub`,
      };
    }
    return { status: 'posted', commentId: comment.id, url: comment.url };
  } catch (error) {
    return { status: 'failed', reason: withoutBody(failureReason(error, options.redact), body) };
  }
}

async function resolveThread(
  context: ItemContext,
  item: FixItem,
  latestAtScan: string | null,
  postedCommentId: string | null,
  evidenceHead: string | null,
  ledger: Ledger,
): Promise<Step> {
  const { pr, options } = context;
  const reread = await rereadThread(context, item);
  if ('status' in reread) return reread;
  const { client, snapshot } = reread;
  if (snapshot.isResolved) return { status: 'already_resolved' };
  if (!snapshot.canResolve) {
    return { status: 'blocked', reason: 'GitHub says you may not resolve this thread (viewerCanResolve: false)' };
  }
  if (evidenceHead && snapshot.headRefOid !== evidenceHead) {
    return {
      status: 'blocked',
      reason: `the PR head moved to ${snapshot.headRefOid.slice(0, 12)} since the scan; checks were for ${evidenceHead.slice(0, 12)}: run \`tollgate comments\` again`,
    };
  }
  const latest = snapshot.lastComments.at(-1);
  const latestIsKnown =
    snapshot.latestCommentId === null ||
    snapshot.latestCommentId === latestAtScan ||
    snapshot.latestCommentId === postedCommentId ||
    (latest !== undefined && isOurReply(latest));
  if (!latestIsKnown) {
    return {
      status: 'blocked',
      reason: 'a new comment arrived since the scan; run `tollgate comments` again and re-triage this thread',
    };
  }
  if (latest?.viewerDidAuthor && latest.state === 'PENDING') {
    return {
      status: 'blocked',
      reason: 'our reply is still pending (in an unsubmitted review), so the thread stays open',
    };
  }
  try {
    const answer = await client.request(RESOLVE_THREAD_MUTATION, { threadId: item.threadId }, threadResolutionSchema);
    if (answer.resolveReviewThread?.thread?.isResolved !== true) {
      return { status: 'failed', reason: 'GitHub answered the resolution but the thread is still unresolved' };
    }
  } catch (error) {
    if (isGithubError(error) && /already resolved|thread is resolved/i.test(error.message)) {
      return { status: 'already_resolved' };
    }
    return { status: 'failed', reason: resolutionFailure(error, options.redact) };
  }
  ledger.resolutions.push({ threadId: item.threadId, pr, classification: item.classification, at: now(options) });
  return { status: 'resolved' };
}

/** GitHub App and Actions tokens need `contents: write` to resolve, even with `pull_requests: write`. */
function resolutionFailure(error: unknown, redact: RedactText): string {
  const reason = failureReason(error, redact);
  if (isGithubError(error) && error.kind === 'permission_denied') {
    return `${reason}; resolving a review thread with a GitHub App or Actions token needs the \`contents: write\` permission as well as \`pull_requests: write\``;
  }
  return reason;
}

function failureReason(error: unknown, redact: RedactText): string {
  if (error instanceof TollgateError) return redact(error.message);
  return redact(error instanceof Error ? error.message.split('\n')[0]! : String(error));
}

/** A mutation error must not carry the reply body (the reference kept it in its error's argv). */
export function withoutBody(message: string, body: string): string {
  let out = message.replaceAll(body, '<reply body>');
  for (const line of body.split('\n')) {
    if (line.trim().length >= 16) out = out.replaceAll(line, '<reply body>');
  }
  return out;
}

function outcomeRecords(outcome: ItemOutcome, pr: PullRequestRef, at: string): OutcomeRecord[] {
  const records: OutcomeRecord[] = [];
  const base = { at, pr, threadId: outcome.threadId, classification: outcome.classification };
  const reply = outcome.reply;
  if (reply.status === 'posted') records.push({ ...base, result: 'replied', commentId: reply.commentId });
  else if (reply.status === 'skipped')
    records.push({ ...base, result: 'reply_skipped', reason: reply.reason.slice(0, 500) });
  else if (reply.status === 'blocked' || reply.status === 'failed') {
    records.push({ ...base, result: reply.status, reason: `reply: ${reply.reason}`.slice(0, 500) });
  }
  const resolve = outcome.resolve;
  if (resolve.status === 'resolved' || resolve.status === 'already_resolved')
    records.push({ ...base, result: resolve.status });
  else if (resolve.status === 'blocked' || resolve.status === 'failed') {
    records.push({ ...base, result: resolve.status, reason: `resolve: ${resolve.reason}`.slice(0, 500) });
  }
  return records;
}

function describeStep(step: Step): string {
  switch (step.status) {
    case 'would_post':
      return 'would post';
    case 'posted':
      return `posted ${step.commentId}${step.url ? ` ${step.url}` : ''}`;
    case 'would_resolve':
      return 'would resolve';
    case 'resolved':
      return 'resolved';
    case 'already_resolved':
      return 'already resolved';
    case 'not_applied':
    case 'skipped':
      return `skipped: ${step.reason}`;
    case 'blocked':
      return `blocked: ${step.reason}`;
    case 'failed':
      return `failed: ${step.reason}`;
    case 'not_requested':
      return 'not requested';
  }
}

export function renderFixOutcome(input: {
  pr: PullRequestRef;
  status: FixStatus;
  modes: Modes;
  outcomes: readonly ItemOutcome[];
}): string {
  const { outcomes } = input;
  const lines: string[] = [];
  lines.push(
    input.modes.dryRun
      ? `dry run for ${formatPullRequest(input.pr)}: nothing posted or resolved (apply with --apply-replies, --apply-resolutions or --apply)`
      : `fix-comments on ${formatPullRequest(input.pr)}`,
  );
  for (const outcome of outcomes) {
    lines.push(`${outcome.threadId}${outcome.where ? `  ${outcome.where}` : ''}  ${outcome.classification}`);
    lines.push(`  reply: ${describeStep(outcome.reply)}`);
    if (outcome.reply.status === 'would_post') {
      for (const line of outcome.reply.body.split('\n')) lines.push(`    | ${line}`.trimEnd());
    }
    lines.push(`  resolve: ${describeStep(outcome.resolve)}`);
  }
  const count = (predicate: (o: ItemOutcome) => boolean) => outcomes.filter(predicate).length;
  const replies = count((o) => o.reply.status === (input.modes.dryRun ? 'would_post' : 'posted'));
  const resolutions = count((o) =>
    input.modes.dryRun ? o.resolve.status === 'would_resolve' : o.resolve.status === 'resolved',
  );
  const blocked = count((o) => o.reply.status === 'blocked' || o.resolve.status === 'blocked');
  const failed = count((o) => o.reply.status === 'failed' || o.resolve.status === 'failed');
  const verb = input.modes.dryRun ? 'would be ' : '';
  lines.push(
    `${outcomes.length} item(s): ${replies} repl${replies === 1 ? 'y' : 'ies'} ${verb}posted, ${resolutions} thread(s) ${verb}resolved, ${blocked} blocked, ${failed} failed; status ${input.status}`,
  );
  return `${lines.join('\n')}\n`;
}

/** `--unresolve THREAD`: reopen a thread tollgate (or anyone) resolved by mistake. */
async function runUnresolve(options: FixCommentsOptions, threadId: string): Promise<FixCommentsResult> {
  const state = await readReviewState(options.repoRoot);
  const repository = await resolveRepository(options);
  const scanPr = state.lastScan?.pr;
  const prNumber =
    options.pr ??
    (scanPr &&
    scanPr.owner.toLowerCase() === repository.owner.toLowerCase() &&
    scanPr.name.toLowerCase() === repository.name.toLowerCase()
      ? scanPr.number
      : undefined);
  if (prNumber === undefined) throw new TollgateError('usage', '--unresolve: name the PR with --pr N');
  const pr: PullRequestRef = { owner: repository.owner, name: repository.name, number: prNumber };
  const client = await options.connect(repository);
  const snapshot = await readThreadSnapshot(client, threadId, pr);
  let line: string;
  let status: FixStatus = 'applied';
  if (!snapshot.isResolved) line = `${threadId} is not resolved; nothing to do`;
  else if (!snapshot.canUnresolve) {
    line = `${threadId}: GitHub says you may not unresolve this thread (viewerCanUnresolve: false)`;
    status = 'blocked';
  } else if (options.dryRun) {
    line = `dry run: would unresolve ${threadId} on ${formatPullRequest(pr)}`;
    status = 'dry_run';
  } else {
    try {
      const answer = await client.request(UNRESOLVE_THREAD_MUTATION, { threadId }, threadUnresolutionSchema);
      if (answer.unresolveReviewThread?.thread?.isResolved !== false) {
        throw new GithubError('graphql_failed', 'GitHub answered the unresolve but the thread is still resolved');
      }
      line = `unresolved ${threadId} on ${formatPullRequest(pr)}; run \`tollgate comments\` to triage it again`;
    } catch (error) {
      line = `${threadId}: could not unresolve: ${failureReason(error, options.redact)}`;
      status = 'failed';
    }
    const at = now(options);
    await updateReviewState(options.repoRoot, (next) => {
      next.history.push({
        at,
        pr,
        threadId,
        classification: null,
        result: status === 'failed' ? 'failed' : 'unresolved',
        ...(status === 'failed' ? { reason: line.slice(0, 500) } : {}),
      });
      if (next.lastScan && samePr(next.lastScan.pr, pr)) {
        for (const thread of next.lastScan.threads)
          if (thread.threadId === threadId) thread.isResolved = status === 'failed';
      }
      next.lifecycle =
        status === 'failed'
          ? { phase: 'blocked', reason: 'an unresolve failed', at, pr }
          : { phase: 'review_triage', reason: `${threadId} was reopened`, at, pr };
    });
  }
  const text = options.json ? `${JSON.stringify({ pr, threadId, status, message: line }, null, 2)}\n` : `${line}\n`;
  return {
    text: options.redact(text),
    exitCode: status === 'failed' || status === 'blocked' ? 1 : 0,
    status,
    mutationsSent: client.mutationsSent,
  };
}
