import { TollgateError } from '../../../core/errors.js';
import { readOnlyClient } from '../connect.js';
import type { GraphqlClient } from '../graphql-client.js';
import type { Redact } from '../redaction.js';
import type { GithubRepository } from '../repository.js';
import { type FetchedThreads, fetchReviewThreads } from './fetch-threads.js';
import { filterThreads, type ThreadFilters } from './filters.js';
import { type Lifecycle, type LifecyclePhase, phaseAfterScan } from './lifecycle.js';
import { type TriagedThread, triagePayloadSchema } from './payload-schemas.js';
import { readPayloadFile } from './read-payload.js';
import { formatPullRequest, type PullRequestRef, type ReviewComment, type ReviewThread } from './review-thread.js';
import { MAX_PREVIEW_CHARS, readReviewState, type StoredScan, type StoredThread, updateReviewState } from './state.js';
import { resolvePullRequest, resolveRepository } from './target.js';
import { validateTriage } from './validate-triage.js';

export interface ReviewCommentsConfig {
  enabled: boolean;
  includeAuthors: string[];
  excludeAuthors: string[];
  includeOutdated: boolean;
  maxThreads: number;
  autoReply: boolean;
  autoResolve: boolean;
  autoResolveClassifications: Array<'valid' | 'invalid' | 'stale' | 'already_fixed'>;
  requireChecksBeforeResolve: boolean;
  checkEvidence: 'local' | 'remote' | 'either';
  requiredChecks: string[];
  waitForChecks?: number | undefined;
  rateLimitFloor: number;
  requestTimeout: number;
  replyTemplate?: string | undefined;
}

/** What both review-thread commands (`comments`, `fix-comments`) work with. */
export interface ReviewThreadsContext {
  repoRoot: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  config: ReviewCommentsConfig;
  /** Builds the GitHub client for the repository (tests pass one bound to the fake server). */
  connect: (repository: GithubRepository) => Promise<GraphqlClient>;
  redact: Redact;
}

export interface CommentsOptions extends ReviewThreadsContext {
  repo?: string | undefined;
  pr?: number | undefined;
  all?: boolean;
  includeOutdated?: boolean;
  authors?: readonly string[];
  paths?: readonly string[];
  maxThreads?: number | undefined;
  json?: boolean;
  /** Read GitHub, write nothing (no state). */
  dryRun?: boolean;
  triagePayload?: string | undefined;
  now?: () => Date;
}

export interface CommentsResult {
  text: string;
  exitCode: 0 | 1;
  /** The read-only client's mutation count: always 0 (tests assert it). */
  mutationsSent: number;
}

const SUMMARY_THREAD_LINES = 50;
const SUMMARY_PREVIEW_CHARS = 140;

/** `tollgate comments`: list, filter, summarize and (optionally) check a triage; never mutates anything on GitHub. */
export async function runComments(options: CommentsOptions): Promise<CommentsResult> {
  const { config, redact } = options;
  if (!config.enabled) {
    throw new TollgateError('config', 'reviewComments.enabled is false; set it to true to read review threads');
  }
  const state = await readReviewState(options.repoRoot);
  const repository = await resolveRepository(options);
  const client = readOnlyClient(await options.connect(repository));
  const pr = await resolvePullRequest({ ...options, repository, state, client });
  const maxThreads = options.maxThreads ?? config.maxThreads;
  const fetched = await fetchReviewThreads({ client, pr, maxThreads });
  const selection = selectThreads(fetched.threads, threadFilters(options));
  const triage = await readTriage(options, selection.selectedIds);
  const lifecycle = lifecycleAfterScan({ fetched, selection, triage, previous: state.lifecycle?.phase ?? null });

  const now = (options.now ?? (() => new Date()))().toISOString();
  const scan = storedScan({ pr, fetched, selection, triage, redact, checkedAt: now });
  if (!options.dryRun) {
    await updateReviewState(options.repoRoot, (next) => {
      next.lastScan = scan;
      next.lifecycle = { ...lifecycle, at: now, pr };
    });
  }

  const dryRun = options.dryRun ?? false;
  const report = commentsReport({ pr, fetched, selection, triage, lifecycle, redact, dryRun });
  const text = options.json
    ? `${JSON.stringify(report, null, 2)}\n`
    : renderCommentsSummary({ ...report, threads: selection.selected, triage, redact, dryRun });
  return { text: redact(text), exitCode: lifecycle.phase === 'blocked' ? 1 : 0, mutationsSent: client.mutationsSent };
}

/** The command's flags over the config's defaults. */
function threadFilters(options: CommentsOptions): ThreadFilters {
  const { config } = options;
  return {
    unresolvedOnly: !options.all,
    includeOutdated: options.includeOutdated || config.includeOutdated,
    authors: options.authors && options.authors.length > 0 ? options.authors : config.includeAuthors,
    excludeAuthors: config.excludeAuthors,
    paths: options.paths ?? [],
  };
}

interface ThreadSelection {
  filters: ThreadFilters;
  selected: ReviewThread[];
  unresolved: ReviewThread[];
  selectedIds: Set<string>;
  /** Some unresolved thread was filtered out, so the scan cannot vouch for the whole PR. */
  narrowed: boolean;
}

function selectThreads(threads: ReviewThread[], filters: ThreadFilters): ThreadSelection {
  const selected = filterThreads(threads, filters);
  const unresolved = threads.filter((thread) => !thread.isResolved);
  const selectedIds = new Set(selected.map((thread) => thread.threadId));
  const narrowed = unresolved.some((thread) => !selectedIds.has(thread.threadId));
  return { filters, selected, unresolved, selectedIds, narrowed };
}

/** The `--triage-payload`, checked against the selected threads; null without one. */
async function readTriage(
  options: CommentsOptions,
  selectedIds: Set<string>,
): Promise<Map<string, TriagedThread> | null> {
  if (!options.triagePayload) return null;
  const payload = await readPayloadFile({
    file: options.triagePayload,
    cwd: options.cwd,
    schema: triagePayloadSchema,
    flag: '--triage-payload',
  });
  return validateTriage(payload.value, { label: payload.label, selectedThreadIds: [...selectedIds] });
}

interface ScanOutcome {
  fetched: FetchedThreads;
  selection: ThreadSelection;
  triage: Map<string, TriagedThread> | null;
}

function lifecycleAfterScan(input: ScanOutcome & { previous: LifecyclePhase | null }): Lifecycle {
  const { fetched, selection, triage } = input;
  const triaged = [...(triage?.values() ?? [])];
  return phaseAfterScan(
    {
      complete: fetched.complete,
      unresolvedSelected: selection.selected.filter((thread) => !thread.isResolved).length,
      narrowed: selection.narrowed,
      triage: triage
        ? {
            humanDecisions: triaged.filter((t) => t.requiresHumanDecision || t.classification === 'needs_human').length,
            valid: triaged.filter((t) => t.classification === 'valid').length,
          }
        : null,
    },
    input.previous,
  );
}

/** What the scan leaves in the review state for `fix-comments` (previews redacted). */
function storedScan(input: ScanOutcome & { pr: PullRequestRef; redact: Redact; checkedAt: string }): StoredScan {
  const { fetched, selection, triage, redact } = input;
  const { filters } = selection;
  return {
    pr: input.pr,
    url: fetched.pr.url,
    headRefOid: fetched.pr.headRefOid,
    viewer: fetched.viewer,
    filters: {
      ...filters,
      authors: [...filters.authors],
      excludeAuthors: [...filters.excludeAuthors],
      paths: [...filters.paths],
    },
    complete: fetched.complete,
    narrowed: selection.narrowed,
    totalCount: fetched.totalCount,
    fetchedThreadCount: fetched.threads.length,
    unresolvedThreadIds: selection.unresolved.map((thread) => thread.threadId),
    pendingReviewIds: fetched.pendingReviewIds,
    threads: selection.selected.map((thread) => storedThread(thread, triage?.get(thread.threadId), redact)),
    triaged: triage !== null,
    checkedAt: input.checkedAt,
  };
}

/** The `--json` report (redacted threads); the text summary renders the same facts. */
function commentsReport(
  input: ScanOutcome & { pr: PullRequestRef; lifecycle: Lifecycle; redact: Redact; dryRun: boolean },
) {
  const { fetched, selection, triage, redact } = input;
  const { selected } = selection;
  return {
    pr: { ...input.pr, url: fetched.pr.url, headRefOid: fetched.pr.headRefOid, state: fetched.pr.state },
    viewer: fetched.viewer,
    status: !fetched.complete ? 'incomplete' : selected.length > 0 ? 'found' : 'none',
    complete: fetched.complete,
    totalCount: fetched.totalCount,
    fetchedThreadCount: fetched.threads.length,
    selectedThreadCount: selected.length,
    pendingReviewIds: fetched.pendingReviewIds,
    filters: selection.filters,
    lifecycle: input.lifecycle,
    stateWritten: !input.dryRun,
    threads: selected.map((thread) => redactThread(thread, redact)),
    triage: triage ? [...triage.values()] : null,
  };
}

function storedThread(thread: ReviewThread, triage: TriagedThread | undefined, redact: Redact): StoredThread {
  return {
    threadId: thread.threadId,
    path: thread.path,
    line: thread.line,
    isResolved: thread.isResolved,
    isOutdated: thread.isOutdated,
    author: thread.author,
    latestCommentId: thread.latestComment?.id ?? null,
    latestCommentPreview: preview(thread.latestComment?.body ?? '', MAX_PREVIEW_CHARS, redact),
    canReply: thread.canReply,
    canResolve: thread.canResolve,
    ...(triage
      ? {
          classification: triage.classification,
          requiresHumanDecision: triage.requiresHumanDecision || triage.classification === 'needs_human',
          canResolveAfterChecks: triage.canResolveAfterChecks,
        }
      : {}),
  };
}

/** Redacted first, then cut: a cut must never split a secret so that the redactor no longer sees it. */
export function preview(body: string, max: number, redact: Redact): string {
  const oneLine = redact(body)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function redactComment(comment: ReviewComment, redact: Redact): ReviewComment {
  return { ...comment, body: redact(comment.body) };
}

function redactThread(thread: ReviewThread, redact: Redact): ReviewThread {
  const comments = thread.comments.map((comment) => redactComment(comment, redact));
  return {
    ...thread,
    comments,
    firstComment: comments[0] ?? null,
    latestComment: comments.at(-1) ?? null,
  };
}

function renderCommentsSummary(input: {
  pr: { owner: string; name: string; number: number; url: string };
  complete: boolean;
  totalCount: number;
  fetchedThreadCount: number;
  pendingReviewIds: string[];
  filters: ThreadFilters;
  lifecycle: Lifecycle;
  threads: ReviewThread[];
  triage: Map<string, TriagedThread> | null;
  redact: Redact;
  dryRun: boolean;
}): string {
  const { threads } = input;
  const what = input.filters.unresolvedOnly ? 'unresolved review thread' : 'review thread';
  const lines = [
    `${formatPullRequest(input.pr)}: ${threads.length} ${what}${threads.length === 1 ? '' : 's'} selected of ${input.fetchedThreadCount} read (${input.totalCount} on the PR)`,
  ];
  if (!input.complete) {
    lines.push(
      `incomplete: stopped at --max-threads ${input.fetchedThreadCount} before the last page; this is not an all-clear (raise --max-threads or reviewComments.maxThreads)`,
    );
  }
  for (const thread of threads.slice(0, SUMMARY_THREAD_LINES)) {
    const where = thread.path ? `${thread.path}${thread.line ? `:${thread.line}` : ''}` : '(no path)';
    const tags = [
      thread.isResolved ? 'resolved' : null,
      thread.isOutdated ? 'outdated' : null,
      input.triage?.get(thread.threadId)?.classification ?? null,
    ].filter(Boolean);
    const comments = thread.comments.length;
    lines.push(
      `  ${thread.threadId}  ${where}  @${thread.author ?? 'ghost'}  ${comments} comment${comments === 1 ? '' : 's'}${tags.length ? `  [${tags.join(', ')}]` : ''}`,
    );
    const latest = thread.latestComment;
    if (latest) lines.push(`    ${JSON.stringify(preview(latest.body, SUMMARY_PREVIEW_CHARS, input.redact))}`);
  }
  if (threads.length > SUMMARY_THREAD_LINES) {
    lines.push(`  … and ${threads.length - SUMMARY_THREAD_LINES} more (--json lists all)`);
  }
  if (input.pendingReviewIds.length > 0) {
    lines.push(
      `warning: you have a pending (unsubmitted) review on this PR; replies would join it and stay invisible; submit or discard it on GitHub before fix-comments`,
    );
  }
  lines.push(
    `lifecycle: ${input.lifecycle.phase} (${input.lifecycle.reason})${input.dryRun ? ' [dry run: state not written]' : ''}`,
  );
  const unresolved = threads.filter((thread) => !thread.isResolved).length;
  if (input.lifecycle.phase === 'blocked') {
    // An incomplete scan and a human decision are different blocks with different fixes: one line each.
    if (!input.complete) {
      lines.push(
        `next: read the rest of the threads: tollgate comments --pr ${input.pr.number} --max-threads ${input.fetchedThreadCount * 2}`,
      );
    }
    const human = [...(input.triage?.values() ?? [])].filter((item) => item.requiresHumanDecision);
    if (human.length > 0) {
      lines.push(
        `next: a person must decide ${human.map((item) => item.threadId).join(', ')} on GitHub (needs_human: tollgate never replies to or resolves them), then rerun: tollgate comments --pr ${input.pr.number}`,
      );
    }
  } else {
    lines.push(`next: ${nextStep(input.lifecycle, input.triage !== null, unresolved)}`);
  }
  return `${lines.join('\n')}\n`;
}

function nextStep(lifecycle: Lifecycle, triaged: boolean, unresolved: number): string {
  switch (lifecycle.phase) {
    case 'blocked':
      return 'a person must decide the needs_human threads, or rerun with a higher --max-threads';
    case 'fixing_review_findings':
      return 'fix the valid findings, run `tollgate run`, commit and push, then `tollgate fix-comments --payload FILE`';
    case 'review_triage':
      if (unresolved === 0 && !triaged) {
        // Nothing to triage: say so, and what would change that, rather than asking for a triage of nothing.
        return lifecycle.reason === 'no unresolved threads match the filters'
          ? 'no unresolved thread matches the filters: run `tollgate comments` without --author/--path and with --include-outdated to check the rest'
          : 'no unresolved review threads: nothing to triage or fix; run `tollgate comments` again after new review comments arrive';
      }
      return triaged
        ? 'write the fix payload (schemas/review-comment-fix.schema.json) and preview it with `tollgate fix-comments --payload FILE`'
        : 'triage each thread against the current code into a payload (schemas/review-comment-triage.schema.json), then `tollgate comments --triage-payload FILE`';
    case 'verified':
      return 'nothing to do on review threads';
  }
}
