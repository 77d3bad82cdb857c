import type { Finding, Severity } from '../core/finding.js';
import type { RunReport } from './run-report.js';

export const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

/** GitHub code scanning reads `security-severity` (0-10) to bucket results. */
export const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
};

function ruleIdOf(finding: Finding): string {
  return `${finding.validator}/${finding.ruleId ?? 'finding'}`;
}

/** SARIF 2.1.0 with stable rule ids, repo-relative URIs under %SRCROOT%, and our finding id as a partial fingerprint. */
export function renderSarif(report: RunReport): string {
  const findings = report.tools.flatMap((tool) => tool.findings);
  const rules = new Map<string, { id: string; name: string; shortDescription: { text: string }; properties: object }>();
  for (const finding of findings) {
    const id = ruleIdOf(finding);
    if (!rules.has(id)) {
      rules.set(id, {
        id,
        name: id.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ? next.toUpperCase() : '')),
        shortDescription: { text: finding.ruleId ? `${finding.validator}: ${finding.ruleId}` : finding.validator },
        properties: { 'security-severity': SECURITY_SEVERITY[finding.severity], tags: [finding.validator] },
      });
    }
  }
  const ruleIds = [...rules.keys()];
  return sarifDocument({
    version: report.version,
    rules: [...rules.values()],
    run: {
      automationDetails: { id: `tollgate/${report.runId}` },
      originalUriBaseIds: { '%SRCROOT%': { uri: `file://${encodeURI(report.repoRoot)}/` } },
      invocations: report.tools.map((tool) => ({
        executionSuccessful: tool.status !== 'error',
        properties: { tool: tool.name, status: tool.status, summary: tool.summary },
      })),
      results: findings.map((finding) => ({
        ruleId: ruleIdOf(finding),
        ruleIndex: ruleIds.indexOf(ruleIdOf(finding)),
        level: SARIF_LEVEL[finding.severity],
        message: { text: finding.body ? `${finding.title}\n\n${finding.body}` : finding.title },
        ...(finding.path
          ? {
              locations: [
                {
                  physicalLocation: {
                    artifactLocation: { uri: encodeURI(finding.path), uriBaseId: '%SRCROOT%' },
                    ...(finding.line
                      ? {
                          region: {
                            startLine: finding.line,
                            ...(finding.endLine ? { endLine: finding.endLine } : {}),
                            ...(finding.column ? { startColumn: finding.column } : {}),
                          },
                        }
                      : {}),
                  },
                },
              ],
            }
          : {}),
        partialFingerprints: { tollgateFindingId: finding.id },
        ...(finding.waiver
          ? { suppressions: [{ kind: 'external', status: 'accepted', justification: finding.waiver.reason }] }
          : {}),
        properties: { severity: finding.severity, sources: finding.sources },
      })),
    },
  });
}

/**
 * The SARIF 2.1.0 document around one run of tollgate: schema, version and the tool driver with its rules. Every
 * SARIF tollgate writes (`tollgate run`, `tollgate scan`) goes through here.
 */
export function sarifDocument(options: {
  version: string;
  rules: readonly object[];
  run: Record<string, unknown>;
}): string {
  const document = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'tollgate',
            version: options.version,
            informationUri: 'https://github.com/tollgate-dev/tollgate',
            rules: options.rules,
          },
        },
        ...options.run,
      },
    ],
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
