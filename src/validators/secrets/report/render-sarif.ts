import { SARIF_LEVEL, sarifDocument, sarifLocation, sarifRule } from '../../../report/sarif.js';
import type { SecretScanReport } from './scan-report.js';

/** SARIF 2.1.0, one result per finding; the fingerprint (never the secret) is the partial fingerprint. */
export function renderScanSarif(report: SecretScanReport): string {
  const rules = new Map<string, ReturnType<typeof sarifRule>>();
  const allowed = report.allowed ?? [];
  for (const finding of [...report.findings, ...allowed.map((entry) => ({ ...entry, title: entry.ruleId }))]) {
    const id = `secrets/${finding.ruleId}`;
    if (!rules.has(id)) {
      rules.set(
        id,
        sarifRule({
          id,
          title: finding.title,
          validator: 'secrets',
          severity: finding.severity,
          help: 'Remove the credential, rotate it at its provider, and load it from the environment or a secret manager.',
        }),
      );
    }
  }
  const ids = [...rules.keys()];
  const findingResults: object[] = report.findings.map((finding) => ({
    ruleId: `secrets/${finding.ruleId}`,
    ruleIndex: ids.indexOf(`secrets/${finding.ruleId}`),
    level: SARIF_LEVEL[finding.severity],
    message: { text: `${finding.title}: ${finding.masked}` },
    locations: [sarifLocation(finding.path, { startLine: finding.line, startColumn: finding.column })],
    partialFingerprints: { secretFingerprint: finding.fingerprint },
    properties: {
      severity: finding.severity,
      isNew: finding.isNew,
      ...(finding.commit ? { commit: finding.commit } : {}),
      ...(finding.verification ? { verification: finding.verification } : {}),
      ...(finding.verificationReason ? { verificationReason: finding.verificationReason } : {}),
    },
  }));
  // Allowed findings stay in the log as suppressed results, as code scanning expects them.
  const allowedResults: object[] = allowed.map((entry) => ({
    ruleId: `secrets/${entry.ruleId}`,
    ruleIndex: ids.indexOf(`secrets/${entry.ruleId}`),
    level: SARIF_LEVEL[entry.severity],
    message: { text: `${entry.ruleId}: ${entry.masked}` },
    locations: [sarifLocation(entry.path, { startLine: entry.line })],
    partialFingerprints: { secretFingerprint: entry.fingerprint },
    suppressions: [
      {
        kind: entry.kind === 'inline' ? 'inSource' : 'external',
        justification: entry.reason ?? `cleared by ${entry.source}`,
      },
    ],
    properties: { severity: entry.severity },
  }));
  return sarifDocument({
    version: report.version,
    rules: [...rules.values()],
    run: {
      invocations: [
        {
          executionSuccessful: true,
          properties: { scope: report.scope, scannedFiles: report.scannedFiles, skipped: report.skipped.length },
        },
      ],
      results: [...findingResults, ...allowedResults],
    },
  });
}
