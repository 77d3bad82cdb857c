/**
 * Pure reading of an analysis report (Markdown): the executive summary table, the key finding, the headings, the
 * methodology checklist. Nothing here trusts the agent: every field is optional and checked by the evals.
 */
export const REPORT_SECTIONS = [
  'Executive Summary',
  'Alert Details',
  'Locations',
  'Context and Intent',
  'Verification Testing',
  'Evidence Analysis',
  'Confidence Scoring',
  'Risk Assessment',
  'Verdict',
  'Methodology',
] as const;

export interface ParsedReport {
  /** Summary rows by lower-case key (`verdict`, `confidence score`, …). */
  summary: Record<string, string>;
  verdict?: string;
  confidenceScore?: number;
  /** The label written next to the score (`7.5/10 (Medium)`). */
  confidenceLabel?: string;
  riskLevel?: string;
  secretType?: string;
  repository?: string;
  alertId?: string;
  keyFinding?: string;
  /** Headings, numbering removed (`## 4. Verification Testing` → `Verification Testing`). */
  headings: string[];
  /** Skill names ticked in the Methodology checklist (`- [x] name`). */
  methodology: string[];
}

function normalizeHeading(text: string): string {
  return text
    .replace(/^[\d.\s]+/, '')
    .replace(/\*\*|`/g, '')
    .trim();
}

/** Markdown emphasis around a cell (`**High**`, `` `x` ``), not the underscores inside TRUE_POSITIVE. */
function stripCell(text: string): string {
  return text
    .trim()
    .replace(/^(\*\*|__|\*|`)(.*)\1$/, '$2')
    .trim();
}

/** The lines of the section under `heading` (up to the next heading of the same or a higher level). */
export function sectionLines(lines: readonly string[], heading: string): string[] {
  const wanted = heading.toLowerCase();
  let level = 0;
  const out: string[] = [];
  for (const line of lines) {
    const match = /^(#{1,6})\s+(.*)$/.exec(line);
    if (match) {
      if (level > 0 && match[1]!.length <= level) break;
      if (level === 0 && normalizeHeading(match[2]!).toLowerCase() === wanted) {
        level = match[1]!.length;
        continue;
      }
    }
    if (level > 0) out.push(line);
  }
  return out;
}

function tableRows(lines: readonly string[]): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const line of lines) {
    const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
    if (!line.trim().startsWith('|') || cells.length < 2) continue;
    const key = stripCell(cells[0]!);
    const value = stripCell(cells.slice(1).join('|'));
    if (/^-+$/.test(key.replace(/:/g, '')) || key === '') continue;
    rows.push([key.toLowerCase(), value]);
  }
  return rows;
}

export function parseReport(text: string): ParsedReport {
  const lines = text.split(/\r?\n/);
  const headings = lines.flatMap((line) => {
    const match = /^#{1,6}\s+(.*)$/.exec(line);
    return match ? [normalizeHeading(match[1]!)] : [];
  });
  const summaryLines = sectionLines(lines, 'Executive Summary');
  const summary: Record<string, string> = {};
  // The summary section's table; first value wins (a later table cannot override it).
  for (const [key, value] of tableRows(summaryLines.length > 0 ? summaryLines : lines)) {
    if (!(key in summary)) summary[key] = value;
  }
  const report: ParsedReport = { summary, headings, methodology: [] };
  const verdict = summary.verdict?.toUpperCase().replace(/[\s-]+/g, '_');
  if (verdict) report.verdict = verdict;
  const confidence = /(\d+(?:\.\d+)?)\s*\/\s*10(?:\s*\(([^)]+)\))?/.exec(
    summary['confidence score'] ?? summary.confidence ?? '',
  );
  if (confidence) {
    report.confidenceScore = Number(confidence[1]);
    if (confidence[2]) report.confidenceLabel = confidence[2].trim();
  }
  if (summary['risk level']) report.riskLevel = summary['risk level'];
  if (summary['secret type']) report.secretType = summary['secret type'];
  if (summary.repository) report.repository = summary.repository;
  if (summary['alert id']) report.alertId = summary['alert id'].replace(/^#/, '');
  const keyFinding = /^>\s*\*\*Key Finding:?\*\*:?\s*(.+)$/im.exec(text)?.[1] ?? summary['key finding'];
  if (keyFinding?.trim()) report.keyFinding = keyFinding.trim();
  for (const line of sectionLines(lines, 'Methodology')) {
    const item = /^\s*[-*]\s*\[[xX]\]\s*`?([A-Za-z0-9_.-]+)`?/.exec(line);
    if (item) report.methodology.push(item[1]!);
  }
  return report;
}
