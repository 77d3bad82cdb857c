import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../../../core/errors.js';
import { readJsonFileResult, writeFileAtomic } from '../../../core/state/atomic-write.js';
import { withStateLock } from '../../../core/state/lock.js';
import { ensureTollgateDir, TOLLGATE_DIR } from '../../../core/state/tollgate-dir.js';
import { LIFECYCLE_PHASES } from './lifecycle.js';
import { classificationSchema } from './payload-schemas.js';

/**
 * `.tollgate/review-threads/state.json`: the last scan, the lifecycle phase, and the ledger of what tollgate posted
 * and resolved. On disk (not in memory like the reference), so a restart cannot make tollgate post the same reply
 * twice. Bounded, and never holds a reply body or a full comment body (previews are redacted and short).
 */
const REVIEW_STATE_VERSION = 1;
const REVIEW_STATE_LABEL = `${TOLLGATE_DIR}/review-threads/state.json`;
const MAX_STORED_THREADS = 1000;
const MAX_HISTORY = 200;
const MAX_LEDGER_ENTRIES = 1000;
export const MAX_PREVIEW_CHARS = 240;

const prSchema = z.object({ owner: z.string(), name: z.string(), number: z.number().int() });

const storedThreadSchema = z.object({
  threadId: z.string(),
  path: z.string().nullable(),
  line: z.number().int().nullable(),
  isResolved: z.boolean(),
  isOutdated: z.boolean(),
  author: z.string().nullable(),
  latestCommentId: z.string().nullable(),
  /** Redacted, at most MAX_PREVIEW_CHARS. */
  latestCommentPreview: z.string(),
  canReply: z.boolean(),
  canResolve: z.boolean(),
  classification: classificationSchema.optional(),
  requiresHumanDecision: z.boolean().optional(),
  canResolveAfterChecks: z.boolean().optional(),
});
export type StoredThread = z.output<typeof storedThreadSchema>;

const scanSchema = z.object({
  pr: prSchema,
  url: z.string(),
  headRefOid: z.string(),
  viewer: z.string(),
  filters: z.object({
    unresolvedOnly: z.boolean(),
    includeOutdated: z.boolean(),
    authors: z.array(z.string()),
    excludeAuthors: z.array(z.string()),
    paths: z.array(z.string()),
  }),
  complete: z.boolean(),
  narrowed: z.boolean(),
  totalCount: z.number().int(),
  fetchedThreadCount: z.number().int(),
  /** Unresolved threads of the whole PR at scan time (for "every thread resolved"). */
  unresolvedThreadIds: z.array(z.string()),
  pendingReviewIds: z.array(z.string()),
  threads: z.array(storedThreadSchema),
  triaged: z.boolean(),
  checkedAt: z.string(),
});
export type StoredScan = z.output<typeof scanSchema>;

const replyRecordSchema = z.object({
  threadId: z.string(),
  pr: prSchema,
  commentId: z.string(),
  url: z.string().nullable(),
  /** The latest comment the reply answered: a newer comment by someone else deserves a new reply. */
  repliedToCommentId: z.string().nullable(),
  key: z.string(),
  at: z.string(),
});
export type ReplyRecord = z.output<typeof replyRecordSchema>;

const resolutionRecordSchema = z.object({
  threadId: z.string(),
  pr: prSchema,
  classification: classificationSchema,
  at: z.string(),
});
export type ResolutionRecord = z.output<typeof resolutionRecordSchema>;

const OUTCOME_RESULTS = [
  'replied',
  'reply_skipped',
  'resolved',
  'already_resolved',
  'resolve_skipped',
  'unresolved',
  'blocked',
  'failed',
] as const;

const outcomeSchema = z.object({
  at: z.string(),
  pr: prSchema,
  threadId: z.string(),
  classification: classificationSchema.nullable(),
  result: z.enum(OUTCOME_RESULTS),
  /** Redacted; never the reply body. */
  reason: z.string().max(500).optional(),
  commentId: z.string().optional(),
});
export type OutcomeRecord = z.output<typeof outcomeSchema>;

const stateSchema = z.object({
  version: z.literal(REVIEW_STATE_VERSION),
  lifecycle: z
    .object({ phase: z.enum(LIFECYCLE_PHASES), reason: z.string(), at: z.string(), pr: prSchema.nullable() })
    .nullable()
    .default(null),
  lastScan: scanSchema.nullable().default(null),
  replies: z.array(replyRecordSchema).default([]),
  resolutions: z.array(resolutionRecordSchema).default([]),
  history: z.array(outcomeSchema).default([]),
});
export type ReviewState = z.output<typeof stateSchema>;

function emptyReviewState(): ReviewState {
  return { version: REVIEW_STATE_VERSION, lifecycle: null, lastScan: null, replies: [], resolutions: [], history: [] };
}

export function reviewStatePath(repoRoot: string): string {
  return join(repoRoot, TOLLGATE_DIR, 'review-threads', 'state.json');
}

/**
 * A missing file reads as empty. A corrupt one is an error, not a fresh start: the ledger is what keeps tollgate
 * from replying twice, so silently dropping it would be unsafe.
 */
export async function readReviewState(repoRoot: string): Promise<ReviewState> {
  const read = await readJsonFileResult(reviewStatePath(repoRoot), stateSchema);
  switch (read.kind) {
    case 'missing':
      return emptyReviewState();
    case 'ok':
      return read.value;
    case 'corrupt':
      throw new TollgateError(
        'io',
        `${REVIEW_STATE_LABEL}: ${read.problem}; fix or delete it (deleting it forgets which replies tollgate posted)`,
      );
  }
}

/** Read-modify-write under `.tollgate/state.lock`, bounded, written atomically. */
export async function updateReviewState(repoRoot: string, mutate: (state: ReviewState) => void): Promise<ReviewState> {
  const paths = ensureTollgateDir(repoRoot);
  mkdirSync(join(paths.root, 'review-threads'), { recursive: true, mode: 0o700 });
  return withStateLock(repoRoot, async () => {
    const state = await readReviewState(repoRoot);
    mutate(state);
    bound(state);
    await writeFileAtomic(reviewStatePath(repoRoot), `${JSON.stringify(state, null, 2)}\n`, {
      label: REVIEW_STATE_LABEL,
    });
    return state;
  });
}

/** Newest kept: history and ledgers are appended in time order. */
export function bound(state: ReviewState): void {
  if (state.history.length > MAX_HISTORY) state.history = state.history.slice(-MAX_HISTORY);
  if (state.replies.length > MAX_LEDGER_ENTRIES) state.replies = state.replies.slice(-MAX_LEDGER_ENTRIES);
  if (state.resolutions.length > MAX_LEDGER_ENTRIES) state.resolutions = state.resolutions.slice(-MAX_LEDGER_ENTRIES);
  if (state.lastScan && state.lastScan.threads.length > MAX_STORED_THREADS) {
    state.lastScan.threads = state.lastScan.threads.slice(0, MAX_STORED_THREADS);
  }
}

export function samePr(a: { owner: string; name: string; number: number }, b: typeof a): boolean {
  return (
    a.number === b.number &&
    a.owner.toLowerCase() === b.owner.toLowerCase() &&
    a.name.toLowerCase() === b.name.toLowerCase()
  );
}

/** The newest reply record of a thread, if tollgate ever replied to it. */
export function lastReplyTo(state: ReviewState, threadId: string): ReplyRecord | undefined {
  return state.replies.findLast((record) => record.threadId === threadId);
}

export function lastResolutionOf(state: ReviewState, threadId: string): ResolutionRecord | undefined {
  return state.resolutions.findLast((record) => record.threadId === threadId);
}
