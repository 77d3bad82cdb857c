import { z } from 'zod';
import { classifyByStatus, forRules, type VerificationResult, type VerifyResponse } from './types.js';

const authTestAnswer = z.object({ ok: z.boolean(), error: z.string().optional() });
/** Slack's errors that mean the token itself is bad (others, like `ratelimited`, say nothing about it). */
const BAD_TOKEN = new Set(['invalid_auth', 'token_revoked', 'token_expired', 'account_inactive', 'not_authed']);

/** Slack answers HTTP 200 either way; the JSON `ok` says which. */
function classifySlack(response: VerifyResponse): VerificationResult {
  if (response.status !== 200) {
    // Only `200 {"ok":true}` means live; another 2xx is not an answer Slack documents.
    const byStatus = classifyByStatus(response);
    return byStatus.status === 'live' ? { status: 'unknown', reason: `HTTP ${response.status}` } : byStatus;
  }
  let parsed: z.infer<typeof authTestAnswer>;
  try {
    parsed = authTestAnswer.parse(JSON.parse(response.body));
  } catch {
    return { status: 'unknown', reason: 'unreadable auth.test answer' };
  }
  if (parsed.ok) return { status: 'live' };
  if (parsed.error && BAD_TOKEN.has(parsed.error)) return { status: 'invalid' };
  return { status: 'unknown', reason: `auth.test: ${parsed.error ?? 'not ok'}`.slice(0, 80) };
}

export default forRules(['slack-bot-token', 'slack-user-token', 'slack-app-token', 'slack-legacy-token'], {
  provider: 'slack',
  defaultBase: 'https://slack.com',
  request: (secret, base) => ({
    method: 'POST',
    url: `${base}/api/auth.test`,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/x-www-form-urlencoded' },
  }),
  classify: classifySlack,
});
