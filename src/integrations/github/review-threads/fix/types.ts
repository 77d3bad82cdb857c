import type { GraphqlClient } from '../../graphql-client.js';
import type { EvidenceSource } from '../check-evidence.js';
import type { Classification } from '../payload-schemas.js';
import type { loadReplyTemplate } from '../reply-template.js';
import type { PullRequestRef } from '../review-thread.js';
import type { ReviewThreadsContext } from '../run-comments.js';
import type { ReviewState } from '../state.js';

export interface FixCommentsOptions extends ReviewThreadsContext {
  /** Check evidence for resolutions (the command passes `createRunEvidence`). */
  evidence: EvidenceSource;
  payload?: string | undefined;
  repo?: string | undefined;
  pr?: number | undefined;
  apply?: boolean;
  applyReplies?: boolean;
  applyResolutions?: boolean;
  dryRun?: boolean;
  /** `--commit`: commit each group of valid threads' `files` before replying (see fix/commit-fixes.ts). */
  commit?: boolean;
  /** `--push`: push those commits to the PR's head branch. */
  push?: boolean;
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

/** Which halves this run applies; neither is a dry run. */
export interface Modes {
  replies: boolean;
  resolutions: boolean;
  dryRun: boolean;
  autoResolveMode: boolean;
}

/** What was posted and resolved in this run, written to the review state once at the end. */
export interface Ledger {
  replies: ReviewState['replies'];
  resolutions: ReviewState['resolutions'];
}

/** What every item of one run shares. */
export interface ItemContext {
  options: FixCommentsOptions;
  modes: Modes;
  pr: PullRequestRef;
  state: ReviewState;
  template: Awaited<ReturnType<typeof loadReplyTemplate>>;
  client: GraphqlClient | null;
  scanCheckedAt: string | null;
  ledger: Ledger;
}

export function now(options: FixCommentsOptions): string {
  return (options.now ?? (() => new Date()))().toISOString();
}
