import { TollgateError } from '../../../../core/errors.js';
import { isGithubError } from '../../github-error.js';
import type { Redact } from '../../redaction.js';

/** One masked line saying why a GitHub call failed. */
export function failureReason(error: unknown, redact: Redact): string {
  return redact(rawReason(error));
}

function rawReason(error: unknown): string {
  if (error instanceof TollgateError) return error.message;
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/**
 * Why posting a reply failed, without any of the reply: GitHub may echo the body whole, a line of it, a fragment cut
 * mid-line or its JSON-escaped form. The body's text comes out first and the secrets' masking after, so a secret in
 * the body cannot shield the rest of its line from being recognised.
 */
export function replyFailureReason(error: unknown, body: string, redact: Redact): string {
  return redact(withoutBody(rawReason(error), body));
}

/** GitHub App and Actions tokens need `contents: write` to resolve, even with `pull_requests: write`. */
export function resolutionFailure(error: unknown, redact: Redact): string {
  const reason = failureReason(error, redact);
  if (isGithubError(error) && error.kind === 'permission_denied') {
    return `${reason}; resolving a review thread with a GitHub App or Actions token needs the \`contents: write\` permission as well as \`pull_requests: write\``;
  }
  return reason;
}

/** Shorter shared runs are ordinary words that any message may share with a reply. */
const ECHO_MIN = 12;

/**
 * A mutation error must not carry the reply body: it would land in logs and the review state. Every run of at least
 * `ECHO_MIN` characters that also occurs in the body (or in its JSON-escaped form) becomes `<reply body>`.
 */
export function withoutBody(message: string, body: string): string {
  if (body.length < ECHO_MIN || message.length < ECHO_MIN) return message;
  const escaped = JSON.stringify(body).slice(1, -1);
  const windows = new Set<string>();
  for (const text of escaped === body ? [body] : [body, escaped]) {
    for (let at = 0; at + ECHO_MIN <= text.length; at++) windows.add(text.slice(at, at + ECHO_MIN));
  }
  const covered = new Uint8Array(message.length);
  for (let at = 0; at + ECHO_MIN <= message.length; at++) {
    if (windows.has(message.slice(at, at + ECHO_MIN))) covered.fill(1, at, at + ECHO_MIN);
  }
  let out = '';
  for (let at = 0; at < message.length; ) {
    if (covered[at] === 0) {
      out += message[at];
      at++;
      continue;
    }
    while (at < message.length && covered[at] === 1) at++;
    out += '<reply body>';
  }
  return out;
}
