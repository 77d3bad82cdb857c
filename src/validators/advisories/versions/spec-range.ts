import semver from 'semver';
import type { Ecosystem } from '../ecosystems.js';
import type { OsvRange } from '../osv/osv-record.js';
import type { VersionComparator } from './compare-versions.js';

/**
 * Version ranges as written in manifests, as unions of intervals, so that "does `^4.17.0` admit a version some
 * advisory affects?" is an interval overlap, without knowing which versions were ever published.
 */
export interface Bound {
  version: string;
  inclusive: boolean;
}
/** `null` bounds are open: no lower bound, or no upper bound. */
export interface Interval {
  low: Bound | null;
  high: Bound | null;
}

const ANY: Interval = { low: null, high: null };

/** The intervals a spec admits, or null when it cannot be read (then it is reported as not checked). */
export function specIntervals(ecosystem: Ecosystem, spec: string, compare: VersionComparator): Interval[] | null {
  const text = spec.trim();
  if (text === '' || text === '*') return [ANY];
  switch (ecosystem) {
    case 'npm':
      return npmIntervals(text);
    case 'PyPI':
      return conjunction(text.split(','), pep440Constraint, compare);
    case 'crates.io':
      return conjunction(text.split(','), cargoConstraint, compare);
    case 'RubyGems':
      return conjunction(text.split(','), rubyConstraint, compare);
    default:
      return null;
  }
}

const compareNpm: VersionComparator = (a, b) => (semver.valid(a) && semver.valid(b) ? semver.compare(a, b) : null);

/** semver's own parse of the range (`^`, `~`, `x`, hyphens, `||`), each comparator set as one interval. */
function npmIntervals(spec: string): Interval[] | null {
  const range = semver.validRange(spec, { loose: true });
  if (range === null) return null;
  const sets = new semver.Range(range, { loose: true }).set.map((comparators) =>
    conjunctionOf(
      comparators.map((comparator) =>
        // `*` parses to one empty comparator that admits everything.
        comparator.value === ''
          ? [ANY]
          : comparator.operator === '' || comparator.operator === '='
            ? exact(comparator.semver.version)
            : (comparison(comparator.operator, comparator.semver.version) ?? [ANY]),
      ),
      compareNpm,
    ),
  );
  return sets.flat();
}

type Constraint = (part: string) => Interval[] | null;

function conjunction(parts: readonly string[], constraint: Constraint, compare: VersionComparator): Interval[] | null {
  const sets: Interval[][] = [];
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') continue;
    const next = constraint(part);
    if (next === null) return null;
    sets.push(next);
  }
  return conjunctionOf(sets, compare);
}

/** What every one of the interval sets admits (an empty list: nothing). */
function conjunctionOf(sets: readonly Interval[][], compare: VersionComparator): Interval[] {
  let result: Interval[] = [ANY];
  for (const next of sets) {
    result = result.flatMap((interval) =>
      next.flatMap((other) => {
        const both = intersect(interval, other, compare);
        return both ? [both] : [];
      }),
    );
  }
  return result;
}

function bump(version: string, keep: number): string | null {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10));
  if (parts.some(Number.isNaN) || parts.length < keep) return null;
  const kept = parts.slice(0, keep);
  kept[keep - 1] = kept[keep - 1]! + 1;
  return kept.join('.');
}

const OPERATOR = /^(===|==|!=|~=|>=|<=|>|<|~>|\^|~|=)?\s*v?([0-9][0-9A-Za-z.*+-]*)$/;

function comparison(operator: string, version: string): Interval[] | null {
  switch (operator) {
    case '>=':
      return [{ low: { version, inclusive: true }, high: null }];
    case '>':
      return [{ low: { version, inclusive: false }, high: null }];
    case '<=':
      return [{ low: null, high: { version, inclusive: true } }];
    case '<':
      return [{ low: null, high: { version, inclusive: false } }];
    case '!=':
      return [ANY]; // excluding one version does not change what a range admits in practice
    default:
      return null;
  }
}

function exact(version: string): Interval[] {
  return [{ low: { version, inclusive: true }, high: { version, inclusive: true } }];
}

function pep440Constraint(part: string): Interval[] | null {
  const match = OPERATOR.exec(part);
  if (!match) return null;
  const [, operator = '==', version] = match as unknown as [string, string | undefined, string];
  if (version.endsWith('.*')) {
    const prefix = version.slice(0, -2);
    const upper = bump(prefix, prefix.split('.').length);
    if (!upper) return null;
    return operator === '!='
      ? [ANY]
      : [{ low: { version: prefix, inclusive: true }, high: { version: upper, inclusive: false } }];
  }
  if (operator === '==' || operator === '===') return exact(version);
  if (operator === '~=') {
    const upper = bump(version, Math.max(1, version.split('.').length - 1));
    return upper ? [{ low: { version, inclusive: true }, high: { version: upper, inclusive: false } }] : null;
  }
  return comparison(operator, version);
}

function cargoConstraint(part: string): Interval[] | null {
  const match = OPERATOR.exec(part);
  if (!match) return null;
  const [, operator = '^', version] = match as unknown as [string, string | undefined, string];
  if (operator === '=') return exact(version);
  if (operator === '^' || operator === '~') {
    const parts = version.split('.');
    const keep =
      operator === '~'
        ? Math.min(2, parts.length)
        : Math.max(1, parts.findIndex((part) => part !== '0') + 1 || parts.length);
    const upper = bump(version, keep);
    return upper ? [{ low: { version, inclusive: true }, high: { version: upper, inclusive: false } }] : null;
  }
  return comparison(operator, version);
}

function rubyConstraint(part: string): Interval[] | null {
  const match = OPERATOR.exec(part);
  if (!match) return null;
  const [, operator = '=', version] = match as unknown as [string, string | undefined, string];
  if (operator === '=') return exact(version);
  if (operator === '~>') {
    const upper = bump(version, Math.max(1, version.split('.').length - 1));
    return upper ? [{ low: { version, inclusive: true }, high: { version: upper, inclusive: false } }] : null;
  }
  return comparison(operator, version);
}

/** An OSV range as intervals: each `introduced` opens one, the next `fixed` (exclusive) or `last_affected` closes it. */
export function osvIntervals(range: OsvRange, compare: VersionComparator): Interval[] {
  const sorted = [...range.events].sort((a, b) => compare(eventAt(a), eventAt(b)) ?? 0);
  const intervals: Interval[] = [];
  let open: Bound | null | undefined;
  for (const event of sorted) {
    if ('introduced' in event) {
      if (open === undefined) open = event.introduced === '0' ? null : { version: event.introduced, inclusive: true };
    } else if (open !== undefined && ('fixed' in event || 'last_affected' in event)) {
      const high =
        'fixed' in event
          ? { version: event.fixed, inclusive: false }
          : { version: event.last_affected, inclusive: true };
      intervals.push({ low: open, high });
      open = undefined;
    }
  }
  if (open !== undefined) intervals.push({ low: open, high: null });
  return intervals;
}

function eventAt(event: OsvRange['events'][number]): string {
  if ('introduced' in event) return event.introduced === '0' ? '0' : event.introduced;
  if ('fixed' in event) return event.fixed;
  if ('last_affected' in event) return event.last_affected;
  return event.limit;
}

/** The overlap of two intervals, or null when they share no version (or a bound cannot be compared). */
function intersect(a: Interval, b: Interval, compare: VersionComparator): Interval | null {
  const low = pickBound(a.low, b.low, compare, 1);
  const high = pickBound(a.high, b.high, compare, -1);
  if (low === undefined || high === undefined) return null;
  if (low && high) {
    const order = compare(low.version, high.version);
    if (order === null) return null;
    if (order > 0 || (order === 0 && !(low.inclusive && high.inclusive))) return null;
  }
  return { low, high };
}

/** The tighter of two bounds on one side (`direction` 1: the larger lower bound; -1: the smaller upper bound). */
function pickBound(
  a: Bound | null,
  b: Bound | null,
  compare: VersionComparator,
  direction: 1 | -1,
): Bound | null | undefined {
  if (!a) return b;
  if (!b) return a;
  const order = compare(a.version, b.version);
  if (order === null) return undefined;
  if (order === 0) return { version: a.version, inclusive: a.inclusive && b.inclusive };
  return order * direction > 0 ? a : b;
}

export function overlaps(a: readonly Interval[], b: readonly Interval[], compare: VersionComparator): boolean {
  return a.some((left) => b.some((right) => intersect(left, right, compare) !== null));
}
