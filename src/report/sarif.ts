import type { Finding, Severity } from '../core/finding.js';
import { configPlaceOf, type RunReport } from '../core/run/run-report.js';

export const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

/** GitHub code scanning reads `security-severity` (0-10) to bucket results. */
const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
};

function ruleIdOf(finding: Finding): string {
  return `${finding.validator}/${finding.ruleId ?? 'finding'}`;
}

/** Validators whose findings are security alerts for code scanning (the `security` tag and `security-severity`). */
const SECURITY_VALIDATORS = new Set(['secrets', 'advisories']);

/** GitHub code scanning's limit of results per run; past it the most severe are kept and the rest counted. */
export const MAX_RESULTS_PER_RUN = 25_000;
/** GitHub's limit of locations per result. */
const MAX_LOCATIONS = 1_000;

export const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/**
 * A repo-relative path as a URI reference: each segment percent-encoded, so `src/we ird#1.js` stays one file
 * (`src/we%20ird%231.js`) instead of a path plus a fragment.
 */
function uriOfPath(path: string): string {
  return path
    .split(/[\\/]/)
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** A location in a repo-relative file; the line when known. */
export function sarifLocation(path: string, region?: { startLine?: number; endLine?: number; startColumn?: number }) {
  const startLine = region?.startLine;
  return {
    physicalLocation: {
      artifactLocation: { uri: uriOfPath(path), uriBaseId: '%SRCROOT%' },
      ...(startLine
        ? {
            region: {
              startLine,
              ...(region?.endLine && region.endLine >= startLine ? { endLine: region.endLine } : {}),
              ...(region?.startColumn ? { startColumn: region.startColumn } : {}),
            },
          }
        : {}),
    },
  };
}

/** A rule as code scanning shows it: short and full descriptions, help text and Markdown, tags and severity. */
export function sarifRule(input: { id: string; title: string; validator: string; severity: Severity; help: string }) {
  const security = SECURITY_VALIDATORS.has(input.validator);
  return {
    id: input.id,
    name: input.id.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) =>
      next ? next.toUpperCase() : '',
    ),
    shortDescription: { text: input.title.slice(0, 1024) },
    fullDescription: { text: `${input.title}. Reported by tollgate's ${input.validator} validator.` },
    help: { text: input.help, markdown: input.help },
    properties: {
      tags: security ? ['security', input.validator] : [input.validator],
      ...(security ? { 'security-severity': SECURITY_SEVERITY[input.severity] } : {}),
    },
  };
}

/**
 * SARIF 2.1.0 that GitHub code scanning accepts: stable rule ids, repo-relative encoded URIs (no local path anywhere),
 * a location on every result (a finding without a file points at the config that defines what failed), our finding
 * id as a partial fingerprint, and at most 25,000 results, the most severe kept.
 */
export function renderSarif(report: RunReport): string {
  const all = report.tools.flatMap((tool) => tool.findings);
  const kept = [...all]
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
    .slice(0, MAX_RESULTS_PER_RUN);
  const findings = all.filter((finding) => kept.includes(finding));
  const dropped = all.length - findings.length;
  const rules = new Map<string, ReturnType<typeof sarifRule>>();
  for (const finding of findings) {
    const id = ruleIdOf(finding);
    if (!rules.has(id)) {
      rules.set(
        id,
        sarifRule({
          id,
          title: finding.ruleId ? `${finding.validator}: ${finding.ruleId}` : finding.validator,
          validator: finding.validator,
          severity: finding.severity,
          help: `See the tollgate report of run ${report.runId} for the details and what to do next (\`tollgate log ${report.runId}\`).`,
        }),
      );
    }
  }
  const ruleIds = [...rules.keys()];
  return sarifDocument({
    version: report.version,
    rules: [...rules.values()],
    run: {
      automationDetails: { id: `tollgate/${report.runId}` },
      invocations: report.tools.map((tool) => ({
        executionSuccessful: tool.status !== 'error',
        properties: { tool: tool.name, status: tool.status, summary: tool.summary },
      })),
      ...(dropped > 0
        ? {
            properties: {
              droppedResults: dropped,
              note: `${dropped} less severe result(s) left out: GitHub accepts ${MAX_RESULTS_PER_RUN} per run`,
            },
          }
        : {}),
      results: findings.map((finding) => ({
        ruleId: ruleIdOf(finding),
        ruleIndex: ruleIds.indexOf(ruleIdOf(finding)),
        level: SARIF_LEVEL[finding.severity],
        message: { text: finding.body ? `${finding.title}\n\n${finding.body}` : finding.title },
        locations: [
          finding.path
            ? sarifLocation(finding.path, {
                ...(finding.line ? { startLine: finding.line } : {}),
                ...(finding.endLine ? { endLine: finding.endLine } : {}),
                ...(finding.column ? { startColumn: finding.column } : {}),
              })
            : configLocation(report, finding.ruleId),
        ].slice(0, MAX_LOCATIONS),
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

function configLocation(report: RunReport, ruleId: string | undefined) {
  const place = configPlaceOf(report, ruleId);
  return sarifLocation(place.file, { startLine: place.line });
}
