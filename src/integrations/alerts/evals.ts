import { confidenceLabel } from './confidence.js';
import { type ParsedReport, parseReport, REPORT_SECTIONS, sectionLines } from './report.js';
import { RISK_LEVELS, VERDICTS } from './types.js';

/**
 * Deterministic checks of an analysis report: pure functions over its text and (for evidence) the list of files in
 * its workspace. Run on every report by validate-alert and by `tollgate evals REPORT.md`. Each check has an id, a
 * severity, pass/fail and a reason; a check that cannot run (no expected alert id given) is listed as skipped.
 */
export interface EvalCheck {
  id: string;
  severity: 'error' | 'warning';
  passed: boolean;
  reason: string;
}

export interface EvalResult {
  /** No error-severity check failed. */
  passed: boolean;
  /** Fraction of checks passed, 0–1. */
  score: number;
  checks: EvalCheck[];
  skipped: Array<{ id: string; reason: string }>;
}

export interface EvalContext {
  expected?: { repository?: string; alertId?: string };
  /** Workspace files (POSIX paths relative to the workspace) → size in bytes. */
  workspaceFiles?: ReadonlyMap<string, number>;
  /** The alert's secret: the report must not carry it in clear. */
  secret?: string;
}

const EVIDENCE_PATH = /(?<![\w/.-])((?:scripts|logs|artifacts)\/[A-Za-z0-9._\-/]*[A-Za-z0-9_-])/g;

export function evaluateReport(text: string, context: EvalContext = {}): EvalResult {
  const report = parseReport(text);
  const checks: EvalCheck[] = [];
  const skipped: EvalResult['skipped'] = [];
  const check = (id: string, severity: EvalCheck['severity'], passed: boolean, pass: string, fail: string) =>
    checks.push({ id, severity, passed, reason: passed ? pass : fail });

  const headings = new Set(report.headings.map((heading) => heading.toLowerCase()));
  const missing = REPORT_SECTIONS.filter((section) => !headings.has(section.toLowerCase()));
  check(
    'structure.required-sections',
    'error',
    missing.length === 0,
    'every required section is present',
    `missing section${missing.length === 1 ? '' : 's'}: ${missing.join(', ')}`,
  );
  const fields = summaryFieldsMissing(report);
  check(
    'structure.summary-fields',
    'error',
    fields.length === 0,
    'the executive summary has verdict, confidence score, risk level, secret type and key finding',
    `the executive summary lacks: ${fields.join(', ')}`,
  );

  metadataChecks(report, context, check, skipped);
  verdictChecks(report, check);
  evidenceChecks(text, context, check, skipped);

  if (context.secret) {
    check(
      'safety.secret-not-in-clear',
      'error',
      !text.includes(context.secret),
      'the alert secret does not appear in clear',
      'the report contains the alert secret in clear (tollgate masked it in the copies it wrote)',
    );
  } else skipped.push({ id: 'safety.secret-not-in-clear', reason: 'the alert secret is not known' });

  const passedCount = checks.filter((item) => item.passed).length;
  return {
    passed: checks.every((item) => item.passed || item.severity !== 'error'),
    score: checks.length === 0 ? 0 : passedCount / checks.length,
    checks,
    skipped,
  };
}

type AddCheck = (id: string, severity: EvalCheck['severity'], passed: boolean, pass: string, fail: string) => void;

function summaryFieldsMissing(report: ParsedReport): string[] {
  const missing: string[] = [];
  if (!report.verdict) missing.push('Verdict');
  if (report.confidenceScore === undefined) missing.push('Confidence Score ("X/10 (Label)")');
  if (!report.riskLevel) missing.push('Risk Level');
  if (!report.secretType) missing.push('Secret Type');
  if (!report.keyFinding) missing.push('Key Finding');
  return missing;
}

function metadataChecks(report: ParsedReport, context: EvalContext, check: AddCheck, skipped: EvalResult['skipped']) {
  const repository = context.expected?.repository;
  if (repository) {
    const found = report.repository ?? '';
    check(
      'metadata.repository',
      'error',
      found.toLowerCase() === repository.toLowerCase(),
      `Repository is ${repository}`,
      `Repository is ${JSON.stringify(found)}, expected ${JSON.stringify(repository)}`,
    );
  } else skipped.push({ id: 'metadata.repository', reason: 'no expected repository given' });
  const alertId = context.expected?.alertId;
  if (alertId) {
    const found = report.alertId ?? '';
    check(
      'metadata.alert-id',
      'error',
      found === alertId,
      `Alert ID is ${alertId}`,
      `Alert ID is ${JSON.stringify(found)}, expected ${JSON.stringify(alertId)}`,
    );
  } else skipped.push({ id: 'metadata.alert-id', reason: 'no expected alert id given' });
}

function verdictChecks(report: ParsedReport, check: AddCheck) {
  const verdict = report.verdict;
  check(
    'verdict.valid',
    'error',
    verdict !== undefined && (VERDICTS as readonly string[]).includes(verdict),
    `verdict ${verdict}`,
    `verdict ${JSON.stringify(verdict ?? '')} is not one of ${VERDICTS.join(', ')}`,
  );
  const score = report.confidenceScore;
  const inRange = score !== undefined && score >= 0 && score <= 10;
  check(
    'verdict.confidence-score',
    'error',
    inRange,
    `confidence ${score}/10`,
    `confidence score ${score ?? 'missing'} is not within 0–10`,
  );
  if (inRange && score !== undefined) {
    const expected = confidenceLabel(score);
    const written = report.confidenceLabel;
    check(
      'verdict.confidence-label',
      'error',
      written !== undefined && written.toLowerCase() === expected.toLowerCase(),
      `${score}/10 is ${expected}`,
      `${score}/10 is ${expected} (8.0–10 High, 5.0–7.9 Medium, 0–4.9 Low), the report says ${JSON.stringify(written ?? '')}`,
    );
  }
  const risk = report.riskLevel?.split(/[\s(]/)[0] ?? '';
  const riskKnown = (RISK_LEVELS as readonly string[]).includes(risk);
  const label = score !== undefined ? confidenceLabel(score) : undefined;
  let incoherence = '';
  if (!riskKnown)
    incoherence = `risk level ${JSON.stringify(report.riskLevel ?? '')} is not one of ${RISK_LEVELS.join(', ')}`;
  else if (verdict === 'INCONCLUSIVE' && label === 'High') incoherence = 'INCONCLUSIVE with High confidence';
  else if (verdict === 'TRUE_POSITIVE' && risk === 'None') incoherence = 'TRUE_POSITIVE with risk None';
  else if (verdict === 'FALSE_POSITIVE' && risk === 'High') incoherence = 'FALSE_POSITIVE with risk High';
  else if (verdict !== 'INCONCLUSIVE' && label === 'Low')
    incoherence = `${verdict} with Low confidence (Low confidence is INCONCLUSIVE)`;
  check('verdict.coherence', 'error', incoherence === '', 'verdict, confidence and risk agree', incoherence);
}

function evidenceChecks(text: string, context: EvalContext, check: AddCheck, skipped: EvalResult['skipped']) {
  const files = context.workspaceFiles;
  if (!files) {
    skipped.push({ id: 'evidence.referenced-files-exist', reason: 'no workspace given' });
    skipped.push({ id: 'evidence.scripts-back-claims', reason: 'no workspace given' });
    return;
  }
  const referenced = [...new Set([...text.matchAll(EVIDENCE_PATH)].map((match) => match[1]!))];
  const absent = referenced.filter(
    (path) => !files.has(path) && ![...files.keys()].some((file) => file.startsWith(`${path}/`)),
  );
  check(
    'evidence.referenced-files-exist',
    'error',
    absent.length === 0,
    `${referenced.length} referenced script/log file${referenced.length === 1 ? '' : 's'} exist in the workspace`,
    `referenced but not in the workspace: ${absent.join(', ')}`,
  );
  const testing = sectionLines(text.split(/\r?\n/), 'Verification Testing').join('\n');
  const scripts = referenced.filter((path) => path.startsWith('scripts/') && files.has(path));
  const logs = referenced.filter((path) => path.startsWith('logs/') && (files.get(path) ?? 0) > 0);
  const claimsTests = /\|\s*\d+\s*\|/.test(testing) || /\b(ran|executed|tested|returned|HTTP \d{3})\b/i.test(testing);
  check(
    'evidence.scripts-back-claims',
    'warning',
    !claimsTests || (scripts.length > 0 && logs.length > 0),
    claimsTests
      ? 'the verification is backed by scripts and non-empty logs in the workspace'
      : 'no verification is claimed',
    'the report claims verification tests but names no existing script with a non-empty log',
  );
}

/** `evals` in one line per check, for the terminal and for the judge's prompt. */
export function formatEvalResult(result: EvalResult): string {
  const lines = result.checks.map(
    (item) =>
      `${item.passed ? 'pass' : 'FAIL'} ${item.id}${item.severity === 'warning' ? ' (warning)' : ''}: ${item.reason}`,
  );
  for (const item of result.skipped) lines.push(`skip ${item.id}: ${item.reason}`);
  return lines.join('\n');
}
