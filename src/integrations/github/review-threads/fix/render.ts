import { formatPullRequest, type PullRequestRef } from '../review-thread.js';
import type { OutcomeRecord } from '../state.js';
import type { CommitFixesResult } from './commit-fixes.js';
import type { FixStatus, ItemOutcome, Modes, Step } from './types.js';

/** The history records one item's outcome adds to the review state. */
export function outcomeRecords(outcome: ItemOutcome, pr: PullRequestRef, at: string): OutcomeRecord[] {
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

/** `tollgate fix-comments` as text: each item's two halves, then the totals. */
export function renderFixOutcome(input: {
  pr: PullRequestRef;
  status: FixStatus;
  modes: Modes;
  outcomes: readonly ItemOutcome[];
  committed?: CommitFixesResult | null;
}): string {
  const { outcomes } = input;
  const lines: string[] = [];
  lines.push(
    input.modes.dryRun
      ? `dry run for ${formatPullRequest(input.pr)}: nothing posted or resolved (apply with --apply-replies, --apply-resolutions or --apply)`
      : `fix-comments on ${formatPullRequest(input.pr)}`,
  );
  for (const commit of input.committed?.commits ?? []) {
    lines.push(`commit ${commit.sha.slice(0, 12)}  ${commit.threadIds.join(', ')}  (${commit.files.join(', ')})`);
  }
  if (input.committed) {
    lines.push(
      input.committed.pushedTo
        ? `pushed to ${input.committed.pushedTo}`
        : 'not pushed (--push sends the commits; resolutions wait for checks on the pushed head)',
    );
  }
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
