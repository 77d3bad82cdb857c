import type { AgentAdapter, AgentFailureKind } from './types.js';

/**
 * Usage-limit phrases every CLI is checked for, on top of each adapter's own. A usage limit lasts hours,
 * so the adapter cools down; a rate limit is transient, so the run reports `rate_limited` and nothing cools down.
 */
const GENERIC_USAGE_LIMIT_PHRASES = [
  'usage limit',
  'quota exceeded',
  'quota will reset',
  'credit balance is too low',
  'out of extra usage',
  'out of usage',
  'out of credits',
  'spend limit',
  'spending limit',
  'insufficient_quota',
  'exceeded your current quota',
] as const;

const GENERIC_RATE_LIMIT_PHRASES = [
  'rate limit',
  'rate-limited',
  'too many requests',
  ' 429',
  '(429)',
  'resource_exhausted',
] as const;

/** Lower case, with curly apostrophes made straight: Codex prints `You’ve hit your usage limit` (U+2019). */
function normalizeFailureText(text: string): string {
  return text.replace(/[\u2018\u2019\u02bc]/g, "'").toLowerCase();
}

/**
 * Classifies a failed run's text (stdout + stderr). "Not logged in" is checked first: a public project once read an
 * expired OAuth session as a quota error and cooled down a reviewer that only needed a login.
 */
export function classifyFailureText(adapter: AgentAdapter, text: string): AgentFailureKind | null {
  const normalized = normalizeFailureText(text);
  const has = (phrases: readonly string[]) => phrases.some((phrase) => normalized.includes(phrase));
  if (has(adapter.notLoggedInPhrases)) return 'not_logged_in';
  if (has(adapter.usageLimitPhrases) || has(GENERIC_USAGE_LIMIT_PHRASES)) return 'usage_limit';
  if (has(adapter.rateLimitPhrases) || has(GENERIC_RATE_LIMIT_PHRASES)) return 'rate_limited';
  return null;
}

/** The first line of `text` that mentions the failure, trimmed and capped, for a message. */
export function failureLine(text: string, max = 200): string {
  const line =
    text
      .split('\n')
      .map((candidate) => candidate.trim())
      .find((candidate) => candidate.length > 0) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
