import type { SecretsOptions } from '../../secrets/options.js';
import type { ScanTarget } from '../../secrets/scan-targets.js';
import type { SecretScanner } from '../../secrets/scanner.js';
import type { SecretFinding } from '../../secrets/to-finding.js';
import { applyVerification } from '../../secrets/verify/apply-verification.js';
import { recoverSecrets } from '../../secrets/verify/recover-secrets.js';
import { type VerifyOptions, verifySecrets } from '../../secrets/verify/verify-secrets.js';

/** In-process only (tests' fake providers): never set from the command line or config. */
export type VerifyTransport = Pick<VerifyOptions, 'hostOverrides' | 'ca' | 'timeoutMs' | 'onRequest'>;

export interface VerifyStepInput {
  repoRoot: string;
  findings: readonly SecretFinding[];
  targets: readonly ScanTarget[];
  scanner: SecretScanner;
  options: SecretsOptions;
  network: 'allow' | 'deny';
  transport?: VerifyTransport | undefined;
  /** The gate's budget: aborting it stops verification. */
  signal?: AbortSignal | undefined;
}

/** `tollgate scan --verify`: the findings with their providers' answers, live first, and notes for the report. */
export async function verifyFindings(input: VerifyStepInput): Promise<{ findings: SecretFinding[]; notes: string[] }> {
  const candidates = input.network === 'deny' ? [] : await recoverSecrets(input.findings, input.targets, input.scanner);
  const { results, notes } = await verifySecrets(candidates, {
    repoRoot: input.repoRoot,
    network: input.network,
    limit: input.options.verifyLimit,
    endpoints: input.options.verifyEndpoints,
    ...(input.signal ? { signal: input.signal } : {}),
    ...input.transport,
  });
  if (input.network === 'deny' && input.findings.length > 0)
    notes.push('verification off: permissions.network is deny');
  const findings = applyVerification(input.findings, results);
  if (input.network === 'deny')
    return {
      findings: findings.map((f) => ({ ...f, verification: 'unknown', verificationReason: 'verification off' })),
      notes,
    };
  return { findings, notes };
}
