import { type ErrorCode, TollgateError } from '../../core/errors.js';

/**
 * What went wrong talking to GitHub, as a kind the callers can branch on (an `already_resolved` resolve is a
 * success, a `permission_denied` resolve names the missing permission) instead of matching message text.
 */
export type GithubFailure =
  | 'gh_unavailable'
  | 'auth_required'
  | 'permission_denied'
  | 'not_found'
  | 'rate_limited'
  | 'secondary_rate_limited'
  | 'timeout'
  | 'network'
  | 'graphql_failed'
  | 'bad_response';

/** Failures the user fixes (log in, grant access, name another PR) exit 2; the rest exit 3. */
const codeFor: Record<GithubFailure, ErrorCode> = {
  gh_unavailable: 'usage',
  auth_required: 'usage',
  permission_denied: 'usage',
  not_found: 'not_found',
  rate_limited: 'io',
  secondary_rate_limited: 'io',
  timeout: 'io',
  network: 'io',
  graphql_failed: 'io',
  bad_response: 'io',
};

export class GithubError extends TollgateError {
  readonly kind: GithubFailure;
  /** GitHub's own `errors[].type` values (`NOT_FOUND`, `FORBIDDEN`, …), when it gave any. */
  readonly errorTypes: readonly string[];

  constructor(kind: GithubFailure, message: string, errorTypes: readonly string[] = []) {
    super(codeFor[kind], message);
    this.name = 'GithubError';
    this.kind = kind;
    this.errorTypes = errorTypes;
  }
}

export function isGithubError(error: unknown): error is GithubError {
  return error instanceof GithubError;
}
