import { isGithubError } from '../../github-error.js';
import type { GraphqlClient } from '../../graphql-client.js';
import { ADD_THREAD_REPLY_MUTATION, RESOLVE_THREAD_MUTATION } from '../../graphql-documents.js';
import { addReplySchema, threadResolutionSchema } from '../graphql-shapes.js';
import type { FixItem } from '../payload-schemas.js';
import { REPLY_MARKER_PATTERN } from '../reply-template.js';
import { formatPullRequest } from '../review-thread.js';
import { readThreadSnapshot, type ThreadSnapshot } from '../thread-snapshot.js';
import { failureReason, replyFailureReason, resolutionFailure } from './failure.js';
import type { ItemPlan } from './plan-item.js';
import { type ItemContext, type ItemOutcome, now, type Step } from './types.js';

/** Carries out a plan: each half only in its mode, re-reading the thread right before each mutation. */
export async function applyPlan(context: ItemContext, plan: ItemPlan): Promise<ItemOutcome> {
  const { modes } = context;
  let reply = plan.reply;
  let resolve = plan.resolve;
  let postedCommentId: string | null = null;
  if (reply.status === 'would_post') {
    if (!modes.replies) reply = { status: 'not_applied', reason: 'replies not applied (--apply-replies)' };
    else {
      reply = await postReply(context, {
        item: plan.item,
        body: reply.body,
        latestAtScan: plan.latestAtScan,
        key: plan.key,
      });
      if (reply.status === 'posted') postedCommentId = reply.commentId;
    }
  }
  if (resolve.status === 'would_resolve') {
    if (!modes.resolutions)
      resolve = { status: 'not_applied', reason: 'resolutions not applied (--apply-resolutions)' };
    else if (reply.status === 'failed' || (reply.status === 'blocked' && plan.replyAllowed)) {
      resolve = { status: 'blocked', reason: 'the reply did not go out, so the thread stays open' };
    } else {
      resolve = await resolveThread(context, {
        item: plan.item,
        latestAtScan: plan.latestAtScan,
        postedCommentId,
        evidenceHead: plan.head,
      });
    }
  }
  return plan.outcome(reply, resolve);
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

interface ReplyInput {
  item: FixItem;
  body: string;
  latestAtScan: string | null;
  key: string;
}

async function postReply(context: ItemContext, input: ReplyInput): Promise<Step> {
  const { pr, options } = context;
  const { item, body, latestAtScan } = input;
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
    context.ledger.replies.push({
      threadId: item.threadId,
      pr,
      commentId: comment.id,
      url: comment.url,
      repliedToCommentId: snapshot.latestCommentId,
      key: input.key,
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
    return { status: 'failed', reason: replyFailureReason(error, body, options.redact) };
  }
}

interface ResolveInput {
  item: FixItem;
  latestAtScan: string | null;
  /** The reply this run just posted, which may now be the latest comment. */
  postedCommentId: string | null;
  /** The head the check evidence was for: a moved head means the evidence no longer holds. */
  evidenceHead: string | null;
}

async function resolveThread(context: ItemContext, input: ResolveInput): Promise<Step> {
  const { pr, options } = context;
  const { item, latestAtScan, evidenceHead } = input;
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
    snapshot.latestCommentId === input.postedCommentId ||
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
  context.ledger.resolutions.push({
    threadId: item.threadId,
    pr,
    classification: item.classification,
    at: now(options),
  });
  return { status: 'resolved' };
}
