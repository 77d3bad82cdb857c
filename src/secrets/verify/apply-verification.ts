import type { SecretFinding } from '../to-finding.js';
import type { VerificationResult } from './types.js';
import { VERIFIERS } from './verifiers.js';

/** Rules left unverified on purpose, and why (docs/validators/secrets.md has the longer story). */
const NO_VERIFIER_BECAUSE: Record<string, string> = {
  'pypi-upload-token': 'no read-only endpoint (PyPI takes tokens only on uploads)',
  'pypi-test-upload-token': 'no read-only endpoint (PyPI takes tokens only on uploads)',
  'twilio-api-key': "an API key's secret, not its SID, is the credential",
  'perplexity-api-key': 'no free read-only endpoint (every call is a billed completion)',
};

/**
 * Each finding with its provider's answer (`unknown` when none was had). A live credential is critical whatever its
 * rule says, and live findings come first.
 */
export function applyVerification(
  findings: readonly SecretFinding[],
  results: ReadonlyMap<string, VerificationResult>,
): SecretFinding[] {
  const verified = findings.map((finding): SecretFinding => {
    const result = results.get(finding.fingerprint) ?? {
      status: 'unknown',
      // A value found inside decoded content (a Kubernetes Secret, a source map) is not re-read for verification.
      reason: VERIFIERS.has(finding.ruleId)
        ? 'value not re-read for verification'
        : (NO_VERIFIER_BECAUSE[finding.ruleId] ?? 'no verifier for this rule'),
    };
    // A live credential is no fixture, wherever it sits: it blocks.
    const { fixture: _fixture, ...unclassified } = finding;
    return {
      ...(result.status === 'live' ? unclassified : finding),
      ...(result.status === 'live' ? { severity: 'critical' as const } : {}),
      verification: result.status,
      // An unknown always says why: without a reason it would read like a quiet pass.
      ...(result.reason || result.status === 'unknown' ? { verificationReason: result.reason || 'no answer' } : {}),
    };
  });
  const rank = (finding: SecretFinding) => (finding.verification === 'live' ? 0 : 1);
  return verified.sort((a, b) => rank(a) - rank(b));
}
