import type { Finding, Severity } from '../core/finding.js';
import { configPlaceOf, type RunReport, type ToolReport, toolPasses } from '../core/run/run-report.js';
import { messageCommitOf } from '../secrets/commit-message-place.js';
import {
  droppedNote,
  MAX_LOCATIONS,
  MAX_RESULTS_PER_RUN,
  mostSevere,
  SARIF_LEVEL,
  SEVERITY_ORDER,
} from './sarif-basics.js';
import { ruleHelp } from './sarif-help.js';
import { importedRuns } from './sarif-imported.js';

export { droppedNote, MAX_RESULTS_PER_RUN, mostSevere, SARIF_LEVEL, SEVERITY_ORDER };

/**
 * GitHub code scanning reads `security-severity` (a number 0.1–10 written as a string) to bucket security alerts:
 * over 9.0 critical, 7.0–8.9 high, 4.0–6.9 medium, 0.1–3.9 low. Ours sit in the middle of each band.
 */
export const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '1.0',
};

/** Validators whose findings are security alerts for code scanning, with the CWE each one's rules are about. */
const SECURITY_VALIDATORS: Record<string, string> = {
  secrets: 'external/cwe/cwe-798',
  advisories: 'external/cwe/cwe-1395',
};

function ruleIdOf(finding: Finding): string {
  return `${finding.validator}/${finding.ruleId ?? 'finding'}`;
}

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

/**
 * A location in a repo-relative file; the line when known. A commit's message (`commit <id> message`) is no file: its
 * artifact is `COMMIT_MSG` (the name code review tools give a commit's message; code scanning needs some artifact) and
 * a logical location names the commit.
 */
export function sarifLocation(path: string, region?: { startLine?: number; endLine?: number; startColumn?: number }) {
  const startLine = region?.startLine;
  const commit = messageCommitOf(path);
  return {
    ...(commit
      ? { logicalLocations: [{ name: 'message', fullyQualifiedName: `commit ${commit} message`, kind: 'resource' }] }
      : {}),
    physicalLocation: {
      artifactLocation: commit
        ? { uri: 'COMMIT_MSG', description: { text: `the message of commit ${commit}` } }
        : { uri: uriOfPath(path), uriBaseId: '%SRCROOT%' },
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

/** A rule as code scanning shows it: short and full descriptions, self-contained help, tags and severity. */
export function sarifRule(input: {
  id: string;
  title: string;
  validator: string;
  severity: Severity;
  ruleId?: string;
}) {
  const cwe = SECURITY_VALIDATORS[input.validator];
  return {
    id: input.id,
    name: input.id.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) =>
      next ? next.toUpperCase() : '',
    ),
    shortDescription: { text: input.title.slice(0, 1024) },
    fullDescription: { text: `${input.title}. Reported by tollgate's ${input.validator} validator.` },
    help: ruleHelp(input.validator, input.ruleId),
    defaultConfiguration: { level: SARIF_LEVEL[input.severity] },
    properties: {
      tags: cwe ? ['security', input.validator, cwe] : [input.validator],
      ...(cwe ? { 'security-severity': SECURITY_SEVERITY[input.severity], precision: 'high' } : {}),
    },
  };
}

/** A validator that did not examine the whole change: the run is not a complete analysis. */
function incompleteTools(tools: readonly ToolReport[]): ToolReport[] {
  return tools.filter((tool) => !toolPasses(tool) && tool.status !== 'failed');
}

/**
 * One invocation: successful only when every validator examined the whole change; otherwise a notification per
 * validator says why not (code scanning then knows the absence of an alert proves nothing).
 */
export function sarifInvocation(problems: ReadonlyArray<{ tool: string; text: string }>, properties: object) {
  return {
    executionSuccessful: problems.length === 0,
    ...(problems.length > 0
      ? {
          toolExecutionNotifications: problems.map((problem) => ({
            level: 'error',
            message: { text: `${problem.tool}: ${problem.text}` },
            descriptor: { id: `incomplete/${problem.tool}` },
          })),
        }
      : {}),
    properties,
  };
}

/** A finding that code scanning should show: failed project checks are annotations unless `output.sarifChecks`. */
function isAlert(report: RunReport, finding: Finding): boolean {
  return finding.validator !== 'checks' || report.sarifChecks === true;
}

/**
 * SARIF 2.1.0 that GitHub code scanning accepts: stable rule ids, repo-relative encoded URIs (no local path anywhere),
 * a location on every result (a finding without a file points at the config that defines what failed), our finding
 * id as a partial fingerprint, at most 25,000 results per run, the most severe kept. tollgate's own findings are one
 * run (category `tollgate/run/`); each analyzer whose SARIF tollgate imported is a run of its own, under its own
 * driver and rules, so code scanning shows a CodeQL alert as CodeQL's.
 */
export function renderSarif(report: RunReport): string {
  const all = report.tools.flatMap((tool) => tool.findings).filter((finding) => isAlert(report, finding));
  const own = all.filter((finding) => !finding.imported);
  const findings = mostSevere(own, MAX_RESULTS_PER_RUN);
  // One rule, many results: the rule carries the most severe of them.
  const worst = new Map<string, Finding>();
  for (const finding of findings) {
    const seen = worst.get(ruleIdOf(finding));
    if (!seen || SEVERITY_ORDER[finding.severity] < SEVERITY_ORDER[seen.severity])
      worst.set(ruleIdOf(finding), finding);
  }
  const rules = new Map(
    [...worst].map(([id, finding]) => [
      id,
      sarifRule({
        id,
        title: finding.ruleId ? `${finding.validator}: ${finding.ruleId}` : finding.validator,
        validator: finding.validator,
        severity: finding.severity,
        ...(finding.ruleId ? { ruleId: finding.ruleId } : {}),
      }),
    ]),
  );
  const ruleIds = [...rules.keys()];
  const problems = incompleteTools(report.tools).map((tool) => ({ tool: tool.name, text: tool.summary }));
  const ownRun = {
    tool: { driver: tollgateDriver(report.version, [...rules.values()]) },
    automationDetails: { id: `tollgate/run/${report.runId}` },
    invocations: [
      sarifInvocation(problems, {
        validators: report.tools.map((tool) => ({ name: tool.name, status: tool.status, summary: tool.summary })),
        ...(report.partial ? { partial: true } : {}),
      }),
    ],
    ...droppedNote(own.length - findings.length),
    results: findings.map((finding) => ({
      ruleId: ruleIdOf(finding),
      ruleIndex: ruleIds.indexOf(ruleIdOf(finding)),
      level: SARIF_LEVEL[finding.severity],
      message: { text: finding.body ? `${finding.title}\n\n${finding.body}` : finding.title },
      locations: [locationOf(report, finding)].slice(0, MAX_LOCATIONS),
      partialFingerprints: { tollgateFindingId: finding.id },
      ...suppressionsOf(finding),
      properties: { severity: finding.severity, sources: finding.sources },
    })),
  };
  const staticAnalysis = report.tools.find((tool) => tool.name === 'static_analysis');
  const imported = importedRuns(
    all.filter((finding) => finding.imported),
    {
      runId: report.runId,
      locationOf: (finding) => locationOf(report, finding),
      suppressionsOf,
      invocation: sarifInvocation(
        staticAnalysis && incompleteTools([staticAnalysis]).length > 0
          ? [{ tool: staticAnalysis.name, text: staticAnalysis.summary }]
          : [],
        { importedBy: 'tollgate', tollgateRun: report.runId },
      ),
    },
  );
  return sarifDocument([ownRun, ...imported]);
}

function locationOf(report: RunReport, finding: Finding) {
  if (!finding.path) {
    const place = configPlaceOf(report, finding.ruleId);
    return sarifLocation(place.file, { startLine: place.line });
  }
  return sarifLocation(finding.path, {
    ...(finding.line ? { startLine: finding.line } : {}),
    ...(finding.endLine ? { endLine: finding.endLine } : {}),
    ...(finding.column ? { startColumn: finding.column } : {}),
  });
}

function suppressionsOf(finding: Finding): Record<string, unknown> {
  return finding.waiver
    ? { suppressions: [{ kind: 'external', status: 'accepted', justification: finding.waiver.reason }] }
    : {};
}

export function tollgateDriver(version: string, rules: readonly object[]) {
  return { name: 'tollgate', version, informationUri: 'https://github.com/tollgate-dev/tollgate', rules };
}

/**
 * The SARIF 2.1.0 document around runs; every SARIF tollgate writes (`tollgate run`, `tollgate scan`) goes through
 * here. GitHub accepts at most 20 runs in one upload, each with a category of its own.
 */
export function sarifDocument(runs: readonly object[]): string {
  const document = { $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0', runs };
  return `${JSON.stringify(document, null, 2)}\n`;
}
