import {
  droppedNote,
  MAX_RESULTS_PER_RUN,
  SARIF_LEVEL,
  SEVERITY_ORDER,
  sarifDocument,
  sarifInvocation,
  sarifLocation,
  sarifRule,
  tollgateDriver,
} from '../../../report/sarif.js';
import { unexaminedFiles } from '../../../secrets/scan-targets.js';
import type { SecretScanReport } from './scan-report.js';

/** SARIF 2.1.0, one result per finding; the fingerprint (never the secret) is the partial fingerprint. */
export function renderScanSarif(full: SecretScanReport): string {
  const report = capped(full);
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
          ruleId: finding.ruleId,
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
      ...(finding.fixture ? { fixture: true } : {}),
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
  const unexamined = unexaminedFiles(report.skipped);
  return sarifDocument([
    {
      tool: { driver: tollgateDriver(report.version, [...rules.values()]) },
      // Its own category: a scan's upload never replaces a gate run's alerts, nor a scan of another scope.
      automationDetails: { id: `tollgate/scan/${scopeCategory(report.scope)}/` },
      invocations: [
        sarifInvocation(
          unexamined.length > 0
            ? [
                {
                  tool: 'secrets',
                  text: `${unexamined.length} file(s) could not be scanned: ${unexamined
                    .slice(0, 5)
                    .map((file) => `${file.path} (${file.detail})`)
                    .join(', ')}`,
                },
              ]
            : [],
          { scope: report.scope, scannedFiles: report.scannedFiles, skipped: report.skipped.length },
        ),
      ],
      results: [...findingResults, ...allowedResults],
      ...droppedNote(report.dropped),
    },
  ]);
}

/** `history main..HEAD` → `history`: the kind of scan, not its moving range, names the category. */
function scopeCategory(scope: string): string {
  return scope.split(/\s/, 1)[0]!.replace(/[^A-Za-z0-9_-]+/g, '-') || 'scan';
}

/** GitHub rejects a run of more than 25,000 results: the most severe findings are kept, then allowed ones. */
function capped(report: SecretScanReport): SecretScanReport & { dropped: number } {
  const allowed = report.allowed ?? [];
  if (report.findings.length + allowed.length <= MAX_RESULTS_PER_RUN) return { ...report, dropped: 0 };
  const findings = [...report.findings]
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
    .slice(0, MAX_RESULTS_PER_RUN);
  const room = MAX_RESULTS_PER_RUN - findings.length;
  const kept = allowed.slice(0, room);
  const dropped = report.findings.length - findings.length + allowed.length - kept.length;
  return { ...report, findings, ...(report.allowed ? { allowed: kept } : {}), dropped };
}
