import { type Ecosystem, normalizePackageName, type PackageVersion } from '../ecosystems.js';
import { comparatorFor, compareSemver, type VersionComparator } from '../versions/compare-versions.js';
import { osvIntervals, overlaps, specIntervals } from '../versions/spec-range.js';
import type { OsvAffected, OsvEvent, OsvRange, OsvRecord } from './osv-record.js';

/** How one record affects one package version: the range that matched and the first version that fixes it. */
export interface AffectedMatch {
  /** Human text of the matched range: ">=0 <4.17.21", or "versions: 1.2.0, 1.2.1". */
  range: string;
  /** The first fixed version above the package's version in the matching range, when there is one. */
  fixed?: string;
}

function eventVersion(event: OsvEvent): string {
  return 'introduced' in event
    ? event.introduced
    : 'fixed' in event
      ? event.fixed
      : 'last_affected' in event
        ? event.last_affected
        : event.limit;
}

/**
 * The OSV evaluation algorithm (https://ossf.github.io/osv-schema/#evaluation): walk the events sorted by version;
 * `introduced ≤ v` opens a vulnerable span, `fixed ≤ v` closes it, `v > last_affected` closes it; `limit` bounds
 * the range. Returns whether `version` is inside, or null when a version in the range cannot be compared.
 */
export function isInRange(version: string, range: OsvRange, compare: VersionComparator): boolean | null {
  const cmp = (a: string, b: string): number | null =>
    a === '0' ? (b === '0' ? 0 : -1) : b === '0' ? 1 : compare(a, b);
  const limits = range.events.filter((event) => 'limit' in event).map(eventVersion);
  for (const limit of limits) {
    if (limit === '*') continue;
    const order = cmp(version, limit);
    if (order === null) return null;
    if (order >= 0) return false;
  }
  const events = range.events.filter((event) => !('limit' in event));
  const keyed: { event: OsvEvent; at: string }[] = events.map((event) => ({ event, at: eventVersion(event) }));
  let failed = false;
  keyed.sort((a, b) => {
    const order = cmp(a.at, b.at);
    if (order === null) failed = true;
    return order ?? 0;
  });
  if (failed) return null;
  let vulnerable = false;
  for (const { event, at } of keyed) {
    const order = cmp(version, at);
    if (order === null) return null;
    if ('introduced' in event) {
      if (order >= 0) vulnerable = true;
    } else if ('fixed' in event) {
      if (order >= 0) vulnerable = false;
    } else if ('last_affected' in event) {
      if (order > 0) vulnerable = false;
    }
  }
  return vulnerable;
}

function describeRange(range: OsvRange): string {
  const parts: string[] = [];
  for (const event of range.events) {
    if ('introduced' in event) parts.push(`>=${event.introduced}`);
    else if ('fixed' in event) parts.push(`<${event.fixed}`);
    else if ('last_affected' in event) parts.push(`<=${event.last_affected}`);
    else parts.push(`<${event.limit} (limit)`);
  }
  return parts.join(' ');
}

function sameVersion(ecosystem: Ecosystem, a: string, b: string): boolean {
  if (a === b) return true;
  return ecosystem === 'Go' && a.replace(/^v/, '') === b.replace(/^v/, '');
}

function affectsPackage(affected: OsvAffected, pkg: PackageVersion): boolean {
  if (!affected.package) return false;
  if (affected.package.ecosystem.split(':')[0] !== pkg.ecosystem) return false;
  return normalizePackageName(pkg.ecosystem, affected.package.name) === normalizePackageName(pkg.ecosystem, pkg.name);
}

/** The smallest `fixed` in the range above `version`: the version to upgrade to for this range. */
function firstFixedAbove(version: string, range: OsvRange, compare: VersionComparator): string | undefined {
  const fixes = range.events.flatMap((event) => ('fixed' in event ? [event.fixed] : []));
  const above = fixes.filter((fix) => (compare(fix, version) ?? 1) > 0);
  return above.sort((a, b) => compare(a, b) ?? 0)[0];
}

/**
 * Whether `record` affects `pkg`, per its `versions` list and its SEMVER/ECOSYSTEM ranges (GIT ranges name
 * commits, not versions, and are left to the `versions` list). Returns the match, or null.
 */
export function matchRecord(record: OsvRecord, pkg: PackageVersion): AffectedMatch | null {
  if (record.withdrawn) return null;
  if (pkg.range) return matchRange(record, pkg);
  const ecosystemCompare = comparatorFor(pkg.ecosystem);
  for (const affected of record.affected) {
    if (!affectsPackage(affected, pkg)) continue;
    if (affected.versions.some((listed) => sameVersion(pkg.ecosystem, listed, pkg.version))) {
      const range = affected.ranges.find((candidate) => candidate.type !== 'GIT');
      const fixed = range ? firstFixedAbove(pkg.version, range, ecosystemCompare) : undefined;
      return {
        range: range ? describeRange(range) : `versions: ${affected.versions.slice(0, 5).join(', ')}`,
        ...(fixed ? { fixed } : {}),
      };
    }
    for (const range of affected.ranges) {
      if (range.type === 'GIT') continue;
      const compare = range.type === 'SEMVER' ? compareSemver : ecosystemCompare;
      if (isInRange(pkg.version, range, compare)) {
        const fixed = firstFixedAbove(pkg.version, range, compare);
        return { range: describeRange(range), ...(fixed ? { fixed } : {}) };
      }
    }
  }
  return null;
}

/** For a record a source already says affects `pkg` (OSV's own matching): the range and fix, as far as we can tell. */
export function describeKnownMatch(record: OsvRecord, pkg: PackageVersion): AffectedMatch {
  const matched = matchRecord(record, pkg);
  if (matched) return matched;
  const affected = record.affected.find((candidate) => affectsPackage(candidate, pkg));
  const range = affected?.ranges.find((candidate) => candidate.type !== 'GIT');
  return { range: range ? describeRange(range) : 'see the advisory' };
}

/** For a manifest range: the first affected range (or listed version) that shares a version with what it admits. */
/**
 * The fix to ask for when only a manifest range is known: the highest `fixed` the range still admits (the spec needs
 * only a tighter lower bound), else the highest `fixed` of the advisory's range.
 */
function fixForSpec(
  range: OsvRange,
  admitted: Parameters<typeof overlaps>[1],
  compare: VersionComparator,
): string | undefined {
  const fixes = range.events
    .flatMap((event) => ('fixed' in event ? [event.fixed] : []))
    .sort((a, b) => compare(a, b) ?? 0);
  const point = (version: string) => [{ low: { version, inclusive: true }, high: { version, inclusive: true } }];
  return fixes.filter((fix) => overlaps(point(fix), admitted, compare)).at(-1) ?? fixes.at(-1);
}

function matchRange(record: OsvRecord, pkg: PackageVersion): AffectedMatch | null {
  const ecosystemCompare = comparatorFor(pkg.ecosystem);
  const admitted = specIntervals(pkg.ecosystem, pkg.version, ecosystemCompare);
  if (admitted === null) return null;
  for (const affected of record.affected) {
    if (!affectsPackage(affected, pkg)) continue;
    const listed = affected.versions.filter((version) =>
      overlaps([{ low: { version, inclusive: true }, high: { version, inclusive: true } }], admitted, ecosystemCompare),
    );
    if (listed.length > 0) {
      const range = affected.ranges.find((candidate) => candidate.type !== 'GIT');
      const fixed = range ? fixForSpec(range, admitted, ecosystemCompare) : undefined;
      return { range: `versions: ${listed.slice(0, 5).join(', ')}`, ...(fixed ? { fixed } : {}) };
    }
    for (const range of affected.ranges) {
      if (range.type === 'GIT') continue;
      const compare = range.type === 'SEMVER' ? compareSemver : ecosystemCompare;
      if (overlaps(osvIntervals(range, compare), admitted, compare)) {
        const fixed = fixForSpec(range, admitted, compare);
        return { range: describeRange(range), ...(fixed ? { fixed } : {}) };
      }
    }
  }
  return null;
}
