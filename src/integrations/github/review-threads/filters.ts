import picomatch from 'picomatch';
import { compareText } from '../../../core/text-order.js';
import type { ReviewThread } from './review-thread.js';

export interface ThreadFilters {
  /** false with `--all`. */
  unresolvedOnly: boolean;
  includeOutdated: boolean;
  /** A thread matches when any of its comments is by one of these (case-insensitive, `[bot]` suffix ignored). */
  authors: readonly string[];
  /** Never threads started by these. */
  excludeAuthors: readonly string[];
  /** Repo-relative globs (`src/**`), exact paths, or folders ending in `/`. */
  paths: readonly string[];
}

/** `coderabbitai[bot]` and `CodeRabbitAI` are the same author to a person typing `--author coderabbitai`. */
function normalizeLogin(login: string): string {
  return login
    .trim()
    .toLowerCase()
    .replace(/\[bot\]$/, '');
}

function pathMatcher(patterns: readonly string[]): (path: string | null) => boolean {
  if (patterns.length === 0) return () => true;
  const matchers = patterns.map((pattern) => {
    if (pattern.endsWith('/')) return (path: string) => path.startsWith(pattern);
    const glob = picomatch(pattern, { dot: true });
    return (path: string) => path === pattern || path.startsWith(`${pattern}/`) || glob(path);
  });
  return (path) => path !== null && matchers.some((match) => match(path));
}

export function filterThreads(threads: readonly ReviewThread[], filters: ThreadFilters): ReviewThread[] {
  const authors = new Set(filters.authors.map(normalizeLogin));
  const excluded = new Set(filters.excludeAuthors.map(normalizeLogin));
  const onPath = pathMatcher(filters.paths);
  return sortThreads(
    threads.filter((thread) => {
      if (filters.unresolvedOnly && thread.isResolved) return false;
      if (!filters.includeOutdated && thread.isOutdated) return false;
      if (thread.author && excluded.has(normalizeLogin(thread.author))) return false;
      if (authors.size > 0 && !thread.comments.some((c) => c.author && authors.has(normalizeLogin(c.author)))) {
        return false;
      }
      return onPath(thread.path);
    }),
  );
}

/** Stable order for every output: by path, line, then when the thread started, then id. */
function sortThreads(threads: readonly ReviewThread[]): ReviewThread[] {
  return [...threads].sort(
    (a, b) =>
      compareText(a.path ?? '\uffff', b.path ?? '\uffff') ||
      (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
      compareText(a.createdAt ?? '', b.createdAt ?? '') ||
      compareText(a.threadId, b.threadId),
  );
}
