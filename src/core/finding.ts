import { createHash } from 'node:crypto';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export function severityRank(severity: Severity): number {
  return SEVERITIES.length - SEVERITIES.indexOf(severity);
}

/** True when `severity` is at least as severe as `threshold`. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return severityRank(severity) >= severityRank(threshold);
}

export interface Waiver {
  findingId: string;
  reason: string;
  by: string;
  at: string;
  /** How it was made ("made at a terminal", "committed in tollgate.waivers.yaml"): not proof of a person. */
  how?: string;
}

export interface Finding {
  /** Stable across reruns and re-ordering: see `findingId`. */
  id: string;
  /** Tool name that owns the finding (`checks`, `secrets`, …). */
  validator: string;
  /** Rule or check identifier within the validator, when it has one. */
  ruleId?: string;
  severity: Severity;
  title: string;
  body?: string;
  path?: string;
  line?: number;
  endLine?: number;
  column?: number;
  /** Who reported it: one entry per source when the same finding came from several (reviewers, analyzers). */
  sources: string[];
  /** Present when the finding has been waived; the finding still appears in reports, marked. */
  waiver?: Waiver;
  /** Set when the finding came from another analyzer's SARIF: SARIF output shows it as that analyzer did. */
  imported?: ImportedSarif;
}

/**
 * What code scanning needs to show an imported result as its own analyzer did (CodeQL, Semgrep): the analyzer's
 * driver, the rule as it described it, and the result's message, related locations and code flows, every location
 * already repo-relative. Plain SARIF 2.1.0 objects.
 */
export interface ImportedSarif {
  driver: { name: string; version?: string; semanticVersion?: string; informationUri?: string };
  rule: Record<string, unknown> & { id: string };
  message: { text: string; markdown?: string };
  relatedLocations?: Array<Record<string, unknown>>;
  codeFlows?: Array<Record<string, unknown>>;
  partialFingerprints?: Record<string, string>;
}

export interface FindingIdInput {
  validator: string;
  path?: string;
  /**
   * What anchors the finding to its place. Prefer the trimmed text of the line (it survives lines moving) over the line
   * number; fall back to the line number, then to nothing (a file-level or change-level finding).
   */
  anchor?: string | number;
  title: string;
}

/** Titles differ in digits and white space between runs ("exit 2 after 31 s"); fold those so the id stays put. */
export function normalizeTitle(title: string): string {
  return title.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

export function findingId(input: FindingIdInput): string {
  const hash = createHash('sha256');
  hash.update(input.validator);
  hash.update('\0');
  hash.update(input.path ?? '');
  hash.update('\0');
  hash.update(input.anchor === undefined ? '' : String(input.anchor).trim());
  hash.update('\0');
  hash.update(normalizeTitle(input.title));
  return hash.digest('hex').slice(0, 16);
}

export type NewFinding = Omit<Finding, 'id' | 'sources'> & { anchor?: string | number; source?: string };

/** Build a finding with its stable id. `source` defaults to the validator. */
export function makeFinding(input: NewFinding): Finding {
  const { anchor, source, ...rest } = input;
  const id = findingId({
    validator: input.validator,
    path: input.path,
    anchor: anchor ?? input.line,
    title: input.title,
  });
  return { ...rest, id, sources: [source ?? input.validator] };
}

/**
 * Merge findings that share an id, keeping every source and the highest severity. Order is that of first appearance.
 */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const byId = new Map<string, Finding>();
  for (const finding of findings) {
    const seen = byId.get(finding.id);
    if (!seen) {
      byId.set(finding.id, { ...finding, sources: [...finding.sources] });
      continue;
    }
    for (const source of finding.sources) if (!seen.sources.includes(source)) seen.sources.push(source);
    if (severityRank(finding.severity) > severityRank(seen.severity)) seen.severity = finding.severity;
  }
  return [...byId.values()];
}
