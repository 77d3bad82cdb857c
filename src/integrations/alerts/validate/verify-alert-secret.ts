import type { SecretsOptions } from '../../../secrets/options.js';
import { builtinRules } from '../../../secrets/rules/index.js';
import { SecretScanner } from '../../../secrets/scanner.js';
import type { VerificationResult } from '../../../secrets/verify/types.js';
import { VERIFIERS } from '../../../secrets/verify/verifiers.js';
import { type VerifyOptions, verifySecrets } from '../../../secrets/verify/verify-secrets.js';
import type { AlertVerification } from '../types.js';

export interface VerifyAlertInput {
  secret: string;
  /** Where the verification cache lives (`.tollgate/verify-cache.json` under it). */
  cacheRoot: string;
  options: SecretsOptions;
  network: 'allow' | 'deny';
  /** Tests only: fake providers. */
  transport?: Pick<VerifyOptions, 'hostOverrides' | 'ca' | 'timeoutMs' | 'onRequest'> | undefined;
}

/**
 * The alert's own secret put to its provider (the same verifiers and safety as `tollgate scan --verify`), as evidence
 * for the analyses. The provider is recognised from the value itself by the built-in rules, so a GitHub alert of any
 * secret type with a known prefix (ghp_, xoxb-, sk_live_, npm_, glpat-…) is covered. `unknown` is evidence of nothing.
 */
export async function verifyAlertSecret(input: VerifyAlertInput): Promise<AlertVerification> {
  const ruleId = verifiableRuleOf(input.secret);
  if (!ruleId) return { status: 'unknown', reason: 'no read-only verifier for this kind of secret' };
  const provider = VERIFIERS.get(ruleId)?.provider ?? 'unknown';
  if (input.network === 'deny')
    return { status: 'unknown', provider, reason: 'verification off: permissions.network is deny' };
  const { results } = await verifySecrets([{ fingerprint: 'alert', ruleId, secret: input.secret }], {
    repoRoot: input.cacheRoot,
    network: input.network,
    limit: Math.min(1, input.options.verifyLimit),
    endpoints: input.options.verifyEndpoints,
    ...input.transport,
  });
  const result: VerificationResult = results.get('alert') ?? { status: 'unknown', reason: 'no answer' };
  return { ...result, provider };
}

/** The first built-in rule with a verifier that matches the whole value. */
function verifiableRuleOf(secret: string): string | undefined {
  const scanner = new SecretScanner(builtinRules.filter((rule) => VERIFIERS.has(rule.id)));
  const found = scanner.scanText(secret, { path: 'alert-secret', keepAllowed: true });
  return found.find((raw) => raw.secret === secret.trim())?.rule.id;
}
