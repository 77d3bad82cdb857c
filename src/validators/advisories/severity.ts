import type { Severity } from '../../core/finding.js';
import type { OsvRecord } from './osv/osv-record.js';

/**
 * CVSS v3.x base score from a vector (https://www.first.org/cvss/v3.1/specification-document §7.1), or null for a
 * vector this does not read (CVSS v2, v4, malformed).
 */
const WEIGHTS: Record<string, Record<string, number>> = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  C: { H: 0.56, L: 0.22, N: 0 },
  I: { H: 0.56, L: 0.22, N: 0 },
  A: { H: 0.56, L: 0.22, N: 0 },
};

/** CVSS 3.1's Roundup: the smallest one-decimal number ≥ x, robust to floating-point noise. */
function roundUp(x: number): number {
  const scaled = Math.round(x * 100_000);
  return scaled % 10_000 === 0 ? scaled / 100_000 : (Math.floor(scaled / 10_000) + 1) / 10;
}

export function cvss3BaseScore(vector: string): number | null {
  if (!/^CVSS:3\.[01]\//.test(vector)) return null;
  const metrics = new Map(
    vector
      .split('/')
      .slice(1)
      .map((part) => part.split(':') as [string, string]),
  );
  const scopeChanged = metrics.get('S') === 'C';
  if (!['U', 'C'].includes(metrics.get('S') ?? '')) return null;
  const value = (metric: string) => WEIGHTS[metric]?.[metrics.get(metric) ?? ''];
  const pr = { N: 0.85, L: scopeChanged ? 0.68 : 0.62, H: scopeChanged ? 0.5 : 0.27 }[metrics.get('PR') ?? ''];
  const [av, ac, ui, c, i, a] = ['AV', 'AC', 'UI', 'C', 'I', 'A'].map(value);
  if ([av, ac, ui, c, i, a, pr].some((weight) => weight === undefined)) return null;
  const iss = 1 - (1 - c!) * (1 - i!) * (1 - a!);
  const impact = scopeChanged ? 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 : 6.42 * iss;
  const exploitability = 8.22 * av! * ac! * pr! * ui!;
  if (impact <= 0) return 0;
  return roundUp(Math.min(scopeChanged ? 1.08 * (impact + exploitability) : impact + exploitability, 10));
}

function severityOfScore(score: number): Severity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'info';
}

const LABELS: Record<string, Severity> = {
  LOW: 'low',
  MODERATE: 'medium',
  MEDIUM: 'medium',
  HIGH: 'high',
  CRITICAL: 'critical',
};

export interface AdvisorySeverity {
  severity: Severity;
  /** Set when the severity came from, or comes with, a CVSS vector. */
  cvss?: { vector: string; score?: number };
  /** True when no source gave a severity, so tollgate assumed medium. */
  assumed?: boolean;
}

/** The record's severity: its database's label (GHSA `MODERATE`, …), else its CVSS v3 score, else assumed medium. */
export function severityOfRecord(record: OsvRecord): AdvisorySeverity {
  const vectors = [...(record.severity ?? []), ...record.affected.flatMap((affected) => affected.severity ?? [])];
  const v3 = vectors.find((entry) => entry.type === 'CVSS_V3');
  const anyVector = v3 ?? vectors.find((entry) => entry.type.startsWith('CVSS'));
  const score = v3 ? cvss3BaseScore(v3.score) : null;
  const cvss = anyVector ? { vector: anyVector.score, ...(score !== null ? { score } : {}) } : undefined;
  const label = record.database_specific?.severity;
  if (typeof label === 'string' && LABELS[label.toUpperCase()]) {
    return { severity: LABELS[label.toUpperCase()]!, ...(cvss ? { cvss } : {}) };
  }
  if (score !== null) return { severity: severityOfScore(score), ...(cvss ? { cvss } : {}) };
  return { severity: 'medium', assumed: true, ...(cvss ? { cvss } : {}) };
}
