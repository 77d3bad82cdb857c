/** What a provider said about a credential. Never "safe": `unknown` means nothing was learned. */
export type Verification = 'live' | 'invalid' | 'unknown';

export interface VerificationResult {
  status: Verification;
  /** Why the answer is `unknown` (rate limited, timeout, HTTP 500…); never contains the credential. */
  reason?: string;
}

/** A request a verifier wants sent: always HTTPS, to its provider's own host. */
export interface VerifyRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
}

/** What came back; `body` is read only up to a few KB. */
export interface VerifyResponse {
  status: number;
  body: string;
}

/** Provider families. `github` and `gitlab` bases can be overridden (Enterprise, self-managed) in config. */
export type VerifyProvider =
  | 'github'
  | 'gitlab'
  | 'slack'
  | 'stripe'
  | 'openai'
  | 'anthropic'
  | 'huggingface'
  | 'groq'
  | 'mistral'
  | 'deepseek'
  | 'xai'
  | 'together'
  | 'fireworks'
  | 'cohere'
  | 'replicate'
  | 'npm'
  | 'sendgrid'
  | 'datadog'
  | 'mailgun'
  | 'twilio'
  | 'aws';

/** What else a request may need: the paired value (an AWS key ID for its secret) and the clock (signatures). */
export interface RequestContext {
  companion?: string;
  now: Date;
}

export interface Verifier {
  provider: VerifyProvider;
  /** The provider's documented base URL (https). */
  defaultBase: string;
  /** Pure: the read-only request that tells whether `secret` is live. `base` has no trailing slash. */
  request(secret: string, base: string, context: RequestContext): VerifyRequest;
  /** The rule whose value, found in the same file, must go with this one (AWS: the access key ID). */
  companionRule?: string;
  /**
   * For a companion that no rule reports because it is not secret (Twilio's account SID): its shape, looked for in the
   * same file; the nearest match by line goes with the credential.
   */
  companionPattern?: RegExp;
  /** Pure: why this credential cannot be verified as it is (then no request is sent). */
  cannotVerify?(context: RequestContext): string | undefined;
  /** Pure: the answer's meaning. Defaults to `classifyByStatus`. */
  classify?(response: VerifyResponse): VerificationResult;
}

/** 2xx live, 401/403 invalid, anything else (429, 5xx, redirects) unknown. */
export function classifyByStatus(response: VerifyResponse): VerificationResult {
  if (response.status >= 200 && response.status < 300) return { status: 'live' };
  if (response.status === 401 || response.status === 403) return { status: 'invalid' };
  if (response.status === 429) return { status: 'unknown', reason: 'rate limited (HTTP 429)' };
  return { status: 'unknown', reason: `HTTP ${response.status}` };
}

/** A verifier for each of `ruleIds`, as one table line per provider family. */
export function forRules(ruleIds: readonly string[], verifier: Verifier): Array<[string, Verifier]> {
  return ruleIds.map((id) => [id, verifier]);
}
