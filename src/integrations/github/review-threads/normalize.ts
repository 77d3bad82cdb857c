import type { RawComment, RawThread } from './graphql-shapes.js';
import type { ReviewComment, ReviewThread } from './review-thread.js';

export function normalizeComment(raw: RawComment): ReviewComment {
  return {
    id: raw.id,
    databaseId: safeInteger(raw.fullDatabaseId),
    author: raw.author?.login ?? null,
    authorAssociation: raw.authorAssociation ?? null,
    body: raw.body,
    path: raw.path ?? null,
    line: raw.line ?? null,
    createdAt: raw.createdAt ?? null,
    updatedAt: raw.updatedAt ?? null,
    url: raw.url ?? null,
    isMinimized: raw.isMinimized,
    viewerCanUpdate: raw.viewerCanUpdate,
    viewerCanDelete: raw.viewerCanDelete,
    viewerDidAuthor: raw.viewerDidAuthor,
    state: raw.state,
  };
}

/**
 * One thread with all its comments (the caller has paged them). Author and association come from the first
 * comment; path and line from the thread, else the latest comment, else the first.
 */
export function normalizeThread(raw: RawThread, prNumber: number, comments: readonly RawComment[]): ReviewThread {
  const normalized = comments.map(normalizeComment);
  const first = normalized[0] ?? null;
  const latest = normalized.at(-1) ?? null;
  return {
    threadId: raw.id,
    prNumber,
    path: raw.path ?? latest?.path ?? first?.path ?? null,
    line: raw.line ?? latest?.line ?? first?.line ?? null,
    startLine: raw.startLine ?? raw.originalStartLine ?? null,
    isResolved: raw.isResolved,
    isOutdated: raw.isOutdated,
    author: first?.author ?? null,
    authorAssociation: first?.authorAssociation ?? null,
    firstComment: first,
    comments: normalized,
    latestComment: latest,
    createdAt: first?.createdAt ?? null,
    updatedAt: latest?.updatedAt ?? latest?.createdAt ?? null,
    url: first?.url ?? null,
    source: 'github-graphql',
    canResolve: raw.viewerCanResolve,
    canReply: raw.viewerCanReply,
    canUnresolve: raw.viewerCanUnresolve,
    resolvedBy: raw.resolvedBy?.login ?? null,
  };
}

function safeInteger(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isSafeInteger(number) ? number : null;
}
