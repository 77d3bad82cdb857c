import { type CheckEvidence, type CommitInHead, evaluateFixPolicy, needsHuman } from '../fix-policy.js';
import type { FixItem } from '../payload-schemas.js';
import { renderReply, replyKey } from '../reply-template.js';
import { lastReplyTo, lastResolutionOf, type StoredThread } from '../state.js';
import { readThreadSnapshot, type ThreadSnapshot } from '../thread-snapshot.js';
import { failureReason } from './failure.js';
import type { ItemContext, ItemOutcome, Step } from './types.js';

export interface PlanInput {
  item: FixItem;
  /** The thread as the last scan stored it (none in detached mode). */
  stored: StoredThread | undefined;
  /** The PR head the scan saw. */
  scanHead: string | null;
}

/** What the policy allows for one item, before anything is sent: the plan a dry run prints and an apply carries out. */
export interface ItemPlan {
  item: FixItem;
  outcome(reply: Step, resolve: Step): ItemOutcome;
  reply: Step;
  resolve: Step;
  /** The policy allowed a reply (so a reply that did not go out keeps the thread open). */
  replyAllowed: boolean;
  /** The latest comment when the thread was triaged: a newer one means re-triage. */
  latestAtScan: string | null;
  /** Idempotency key written into the reply. */
  key: string;
  /** The head the check evidence is for. */
  head: string | null;
}

/** A plan, or an outcome already decided without one (unreadable in detached mode, already resolved). */
export async function planItem(context: ItemContext, input: PlanInput): Promise<ItemPlan | ItemOutcome> {
  const { options, modes, client, pr } = context;
  const { item, stored } = input;
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
  const head = input.scanHead ?? detachedSnapshot?.headRefOid ?? null;
  if (stored?.isResolved || detachedSnapshot?.isResolved) {
    return outcome(
      { status: 'skipped', reason: 'already resolved on GitHub' },
      item.resolveRequested ? { status: 'already_resolved' } : notRequested,
    );
  }

  const latestAtScan = stored?.latestCommentId ?? detachedSnapshot?.latestCommentId ?? null;
  const steps = await decideSteps(context, { item, stored, head, latestAtScan });
  let { reply } = steps;
  const { resolve } = steps;

  const key = replyKey({ threadId: item.threadId, latestCommentId: latestAtScan, item });
  if (reply.status === 'would_post') {
    try {
      reply = {
        status: 'would_post',
        body: renderReply({
          template: context.template,
          item,
          resolutionPlanned: resolve.status === 'would_resolve' && (modes.dryRun || modes.resolutions),
          key,
          redact: options.redact,
        }),
      };
    } catch (error) {
      reply = { status: 'blocked', reason: failureReason(error, options.redact) };
    }
  }
  return { item, outcome, reply, resolve, replyAllowed: steps.replyAllowed, latestAtScan, key, head };
}

/**
 * The policy's answer for both halves, before any text is rendered: the evidence it needs (checks on the head, the
 * fix commit in it), then what the review state on disk already did (never answer twice, never resolve twice).
 */
async function decideSteps(
  context: ItemContext,
  input: { item: FixItem; stored: StoredThread | undefined; head: string | null; latestAtScan: string | null },
): Promise<{ reply: Step; resolve: Step; replyAllowed: boolean }> {
  const { options, modes, state } = context;
  const { item, stored, head, latestAtScan } = input;
  const notRequested: Step = { status: 'not_requested' };
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
  const previousReply = lastReplyTo(state, item.threadId);
  const replyCovered =
    previousReply !== undefined &&
    latestAtScan !== null &&
    (previousReply.repliedToCommentId === latestAtScan || previousReply.commentId === latestAtScan);
  const previousResolution = lastResolutionOf(state, item.threadId);
  const reopenedSinceTriage =
    previousResolution !== undefined && context.scanCheckedAt !== null && context.scanCheckedAt > previousResolution.at;

  let reply: Step;
  if (!decision.reply.allowed) reply = { status: 'blocked', ...reasonOf(decision.reply) };
  else if (replyCovered) reply = { status: 'skipped', reason: 'our earlier reply already answers the latest comment' };
  else reply = { status: 'would_post', body: '' };

  let resolve: Step;
  if (!decision.resolve) resolve = notRequested;
  else if (!decision.resolve.allowed) resolve = { status: 'blocked', ...reasonOf(decision.resolve) };
  else if (previousResolution && !reopenedSinceTriage) {
    resolve = {
      status: 'blocked',
      reason: `tollgate resolved this thread at ${previousResolution.at} and it was reopened; run \`tollgate comments\` to triage it again`,
    };
  } else resolve = { status: 'would_resolve' };

  return { reply, resolve, replyAllowed: decision.reply.allowed };
}

export function isPlan(value: ItemPlan | ItemOutcome): value is ItemPlan {
  return 'outcome' in value && typeof value.outcome === 'function';
}

function reasonOf(decision: { allowed: false; reason: string; humanDecision?: boolean }) {
  return decision.humanDecision ? { reason: decision.reason, humanDecision: true } : { reason: decision.reason };
}
