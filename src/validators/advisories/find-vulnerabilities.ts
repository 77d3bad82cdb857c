import type { Severity } from '../../core/finding.js';
import { type PackageVersion, packageKey } from './ecosystems.js';
import { describeKnownMatch, matchRecord } from './osv/affected.js';
import type { OsvRecord } from './osv/osv-record.js';
import { severityOfRecord } from './severity.js';
import type { AdvisorySource, SourceAnswer, SourceIo } from './sources/source.js';
import { comparatorFor } from './versions/compare-versions.js';

export interface AdvisoryMatch {
  id: string;
  /** CVE, GHSA, PYSEC… ids of the same vulnerability. */
  aliases: string[];
  summary?: string;
  severity: Severity;
  severityAssumed?: boolean;
  cvss?: { vector: string; score?: number };
  /** The affected range that matched, as text. */
  range: string;
  /** The first version that fixes it, above the one in use. */
  fixed?: string;
  url: string;
  /** Which sources reported it. */
  sources: string[];
}

export interface SourceFailure {
  source: string;
  kind: Exclude<SourceAnswer['kind'], 'ok'>;
  message: string;
}

export interface VulnerabilityReport {
  /** Per package key (`packageKey`), its advisories; packages without any are absent. */
  matches: Map<string, AdvisoryMatch[]>;
  failures: SourceFailure[];
  /** Sources that answered. */
  answered: string[];
}

function advisoryUrl(record: OsvRecord): string {
  return (
    record.references?.find((reference) => reference.type === 'ADVISORY')?.url ??
    `https://osv.dev/vulnerability/${record.id}`
  );
}

/** Two sources name one vulnerability differently (GHSA-… vs PYSEC-…); aliases tie them together. */
function sameVulnerability(a: AdvisoryMatch, record: OsvRecord): boolean {
  const names = new Set([a.id, ...a.aliases]);
  return names.has(record.id) || record.aliases.some((alias) => names.has(alias));
}

/**
 * Asks every source about every package (one request batch per source), and merges what they report into one list
 * of advisories per package. A source that fails is reported in `failures`, never taken as "nothing found".
 */
export async function findVulnerabilities(
  packages: readonly PackageVersion[],
  sources: readonly AdvisorySource[],
  io: SourceIo,
): Promise<VulnerabilityReport> {
  const matches = new Map<string, AdvisoryMatch[]>();
  const failures: SourceFailure[] = [];
  const answered: string[] = [];
  if (packages.length === 0) return { matches, failures, answered };
  const answers = await Promise.all(
    sources.map(async (source) => ({ source, answer: await source.query(packages, io) })),
  );
  for (const { source, answer } of answers) {
    if (answer.kind !== 'ok') {
      failures.push({ source: source.name, kind: answer.kind, message: answer.message });
      continue;
    }
    answered.push(source.name);
    answer.records.forEach((records, index) => {
      const pkg = packages[index]!;
      const key = packageKey(pkg);
      const list = matches.get(key) ?? [];
      for (const record of records) {
        if (pkg.range && !matchRecord(record, pkg)) continue;
        const known = list.find((match) => sameVulnerability(match, record));
        if (known) {
          if (!known.sources.includes(source.name)) known.sources.push(source.name);
          for (const alias of [record.id, ...record.aliases])
            if (alias !== known.id && !known.aliases.includes(alias)) known.aliases.push(alias);
          continue;
        }
        const { range, fixed } = describeKnownMatch(record, pkg);
        const severity = severityOfRecord(record);
        list.push({
          id: record.id,
          aliases: [...record.aliases],
          ...(record.summary ? { summary: record.summary } : {}),
          severity: severity.severity,
          ...(severity.assumed ? { severityAssumed: true } : {}),
          ...(severity.cvss ? { cvss: severity.cvss } : {}),
          range,
          ...(fixed ? { fixed } : {}),
          url: advisoryUrl(record),
          sources: [source.name],
        });
      }
      if (list.length > 0) matches.set(key, list);
    });
  }
  return { matches, failures, answered };
}

/** The version that fixes every listed advisory (the highest of their first fixes), if each has one. */
export function versionFixingAll(pkg: PackageVersion, advisories: readonly AdvisoryMatch[]): string | undefined {
  if (advisories.some((advisory) => !advisory.fixed)) return undefined;
  const compare = comparatorFor(pkg.ecosystem);
  return advisories
    .map((advisory) => advisory.fixed!)
    .sort((a, b) => compare(a, b) ?? 0)
    .at(-1);
}
