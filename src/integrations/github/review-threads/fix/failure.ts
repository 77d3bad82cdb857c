import { TollgateError } from '../../../../core/errors.js';
import { isGithubError } from '../../github-error.js';
import type { Redact } from '../../redaction.js';

/** One masked line saying why a GitHub call failed. */
export function failureReason(error: unknown, redact: Redact): string {
  if (error instanceof TollgateError) return redact(error.message);
  return redact(error instanceof Error ? error.message.split('\n')[0]! : String(error));
}

/** GitHub App and Actions tokens need `contents: write` to resolve, even with `pull_requests: write`. */
export function resolutionFailure(error: unknown, redact: Redact): string {
  const reason = failureReason(error, redact);
  if (isGithubError(error) && error.kind === 'permission_denied') {
    return `${reason}; resolving a review thread with a GitHub App or Actions token needs the \`contents: write\` permission as well as \`pull_requests: write\``;
  }
  return reason;
}

/** A mutation error must not carry the reply body: it would land in logs and the review state. */
export function withoutBody(message: string, body: string): string {
  let out = message.replaceAll(body, '<reply body>');
  for (const line of body.split('\n')) {
    if (line.trim().length >= 16) out = out.replaceAll(line, '<reply body>');
  }
  return out;
}
