import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { comparatorFor } from './compare-versions.js';
import { osvIntervals, overlaps, specIntervals } from './spec-range.js';

const admits = (ecosystem: Parameters<typeof specIntervals>[0], spec: string, version: string): boolean => {
  const compare = comparatorFor(ecosystem);
  const intervals = specIntervals(ecosystem, spec, compare);
  if (!intervals) throw new Error(`unreadable spec ${spec}`);
  return overlaps(intervals, [{ low: { version, inclusive: true }, high: { version, inclusive: true } }], compare);
};

describe('manifest ranges as intervals', () => {
  test('npm: a version is admitted exactly when semver says it satisfies the range', () => {
    const version = fc.tuple(fc.nat(6), fc.nat(6), fc.nat(6)).map(([a, b, c]) => `${a}.${b}.${c}`);
    const range = fc.oneof(
      version.map((v) => `^${v}`),
      version.map((v) => `~${v}`),
      fc.tuple(version, version).map(([a, b]) => `>=${a} <${b}`),
      fc.tuple(version, version).map(([a, b]) => `${a} - ${b}`),
      fc.tuple(version, version).map(([a, b]) => `<=${a} || >${b}`),
      fc.nat(6).map((major) => `${major}.x`),
    );
    fc.assert(
      fc.property(version, range, (v, r) => {
        expect(admits('npm', r, v)).toBe(semver.satisfies(v, r));
      }),
      { numRuns: 500 },
    );
  });

  test.each([
    ['PyPI', '>=3.2,<4', '3.2.5', true],
    ['PyPI', '>=3.2,<4', '4.0', false],
    ['PyPI', '~=2.2', '2.9', true],
    ['PyPI', '~=2.2', '3.0', false],
    ['PyPI', '==1.4.*', '1.4.9', true],
    ['PyPI', '==1.4.*', '1.5.0', false],
    ['crates.io', '1.2', '1.9.0', true],
    ['crates.io', '1.2', '2.0.0', false],
    ['crates.io', '0.3', '0.4.0', false],
    ['crates.io', '~1.2.3', '1.2.9', true],
    ['crates.io', '~1.2.3', '1.3.0', false],
    ['RubyGems', '~> 7.1', '7.9', true],
    ['RubyGems', '~> 7.1', '8.0', false],
    ['RubyGems', '~> 7.1, >= 7.1.2', '7.1.1', false],
  ] as const)('%s %j admits %s: %s', (ecosystem, spec, version, expected) => {
    expect(admits(ecosystem, spec, version)).toBe(expected);
  });

  test('an OSV range with introduced 0 and a fix overlaps a caret range below the fix, not one above it', () => {
    const compare = comparatorFor('npm');
    const affected = osvIntervals({ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '4.17.21' }] }, compare);
    expect(overlaps(specIntervals('npm', '^4.17.0', compare)!, affected, compare)).toBe(true);
    expect(overlaps(specIntervals('npm', '>=4.17.21', compare)!, affected, compare)).toBe(false);
    expect(specIntervals('npm', 'latest', compare)).toBeNull();
  });
});
