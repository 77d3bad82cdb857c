import type { Redact } from '../../secrets/redact.js';
import { redactSecrets, sharedSecretScanner } from '../../secrets/redact.js';
import type { SecretRule } from '../../secrets/rule.js';
import { SecretScanner } from '../../secrets/scanner.js';

/**
 * Replaces every secret in a text by a mask. Everything tollgate prints or stores from GitHub (comment bodies,
 * reply bodies, error text) passes through one of these, `--json` included.
 */
export type { Redact };

/** The marker a redacted secret becomes: the rule id says what it was, nothing says what it is. */
export function redactionMarker(ruleId: string): string {
  return `[REDACTED:${ruleId}]`;
}

/**
 * A few shapes the scanner's rules may not cover in prose (an Authorization header pasted in a comment); applied
 * after the scanner, so they only catch what it left.
 */
const BASELINE_PATTERNS: ReadonlyArray<{ id: string; pattern: RegExp; keep?: number }> = [
  { id: 'authorization-header', pattern: /\b(authorization:\s*(?:bearer|basic|token)\s+)([^\s"'`]{8,})/gi, keep: 1 },
  { id: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9_]{20,}|github_pat_[A-Za-z0-9_]{20,})\b/g },
  {
    id: 'private-key',
    pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  },
];

export function redactBaseline(text: string): string {
  let out = text;
  for (const { id, pattern, keep } of BASELINE_PATTERNS) {
    out = out.replace(pattern, (...groups: string[]) =>
      keep ? `${groups[keep]}${redactionMarker(id)}` : redactionMarker(id),
    );
  }
  return out;
}

/**
 * The redactor built on the secret scanner's own rules (`src/secrets/`), so comment bodies are held to
 * the same patterns as the code. The scanner is told the text is markdown; its allow markers do not apply here
 * (a reviewer cannot opt a token out of redaction).
 */
export function createScannerRedactor(rules?: readonly SecretRule[]): Redact {
  const scanner = rules ? new SecretScanner(rules) : sharedSecretScanner();
  return (text) =>
    redactBaseline(
      redactSecrets(text, {
        scanner,
        path: 'review-comment.md',
        replace: (_secret, ruleId) => redactionMarker(ruleId),
      }),
    );
}

let shared: Redact | undefined;

/** One scanner per process: building the rule index is the expensive part. */
export function defaultRedactor(): Redact {
  shared ??= createScannerRedactor();
  return shared;
}
