import { type Finding, makeFinding, type Severity } from '../../core/finding.js';
import type { SarifIssue, SarifLevel } from './reader/read-sarif.js';

export const TOOL_NAME = 'static_analysis';

/**
 * GitHub's mapping of a rule's `security-severity` score to a severity (the CVSS bands), used when the rule has one;
 * otherwise the SARIF level decides.
 * https://docs.github.com/en/code-security/code-scanning/managing-code-scanning-alerts/about-code-scanning-alerts#about-alert-severity-and-security-severity-levels
 */
function severityOfIssue(issue: Pick<SarifIssue, 'securitySeverity' | 'level'>): Severity {
  const score = issue.securitySeverity;
  if (score !== undefined) {
    if (score >= 9) return 'critical';
    if (score >= 7) return 'high';
    if (score >= 4) return 'medium';
    if (score > 0) return 'low';
    return 'info';
  }
  const byLevel: Record<SarifLevel, Severity> = { error: 'high', warning: 'medium', note: 'low', none: 'info' };
  return byLevel[issue.level];
}

/** Rule + location + fingerprint: the same alert written twice (two runs, two categories) is one finding. */
function dedupeKey(issue: SarifIssue): string {
  return [issue.ruleId, issue.path, issue.startLine ?? '', issue.startColumn ?? '', issue.fingerprint ?? ''].join('\0');
}

export function dedupeIssues(issues: readonly SarifIssue[]): SarifIssue[] {
  const seen = new Map<string, SarifIssue>();
  for (const issue of issues) if (!seen.has(dedupeKey(issue))) seen.set(dedupeKey(issue), issue);
  return [...seen.values()];
}

const MAX_TITLE = 160;
const MAX_HELP = 1500;

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line;
}

function where(path: string | null, line: number | undefined): string {
  if (path === null) return '(outside the repository)';
  return line ? `${path}:${line}` : path;
}

function bodyOf(issue: SarifIssue): string {
  const parts = [issue.message.trim()];
  if (issue.flow && issue.flow.length > 0) {
    const steps = issue.flow.map(
      (step, index) => `${index + 1}. ${where(step.path, step.line)}${step.message ? ` ${step.message}` : ''}`,
    );
    parts.push(`Data flow:\n${steps.join('\n')}`);
  }
  if (issue.ruleTitle)
    parts.push(`Rule: ${issue.ruleId} (${issue.ruleTitle})${issue.helpUri ? ` ${issue.helpUri}` : ''}`);
  else if (issue.helpUri) parts.push(`Rule: ${issue.ruleId} ${issue.helpUri}`);
  if (issue.help) {
    const help = issue.help.trim();
    parts.push(help.length > MAX_HELP ? `${help.slice(0, MAX_HELP)}…` : help);
  }
  parts.push(`Reported by ${issue.toolName} (${issue.producer}).`);
  return parts.join('\n\n');
}

/**
 * One finding per issue. The id is anchored to the text of the flagged line (it survives lines moving) when the
 * file can be read, else to the line number. `validator` owns the findings (a declared validator that prints SARIF
 * reads its output here too).
 */
export async function issuesToFindings(
  issues: readonly SarifIssue[],
  readText: (path: string) => Promise<string | null>,
  validator: string = TOOL_NAME,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const issue of issues) {
    let anchor: string | number | undefined = issue.startLine;
    if (issue.startLine) {
      const text = await readText(issue.path).catch(() => null);
      const line = text?.split('\n')[issue.startLine - 1]?.trim();
      if (line) anchor = line;
    }
    findings.push(
      makeFinding({
        validator,
        ruleId: issue.ruleId,
        severity: severityOfIssue(issue),
        title: `${issue.ruleId}: ${firstLine(issue.message)}`,
        body: bodyOf(issue),
        path: issue.path,
        ...(issue.startLine ? { line: issue.startLine } : {}),
        ...(issue.endLine ? { endLine: issue.endLine } : {}),
        ...(issue.startColumn ? { column: issue.startColumn } : {}),
        ...(anchor !== undefined ? { anchor } : {}),
        source: issue.producer,
        ...(issue.imported ? { imported: issue.imported } : {}),
      }),
    );
  }
  return findings;
}
