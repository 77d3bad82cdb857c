import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isInRange } from '../osv/affected.js';
import { cvss3BaseScore } from '../severity.js';
import { githubRangeToOsv } from '../sources/github.js';
import { comparatorFor, comparePep440, compareRubygems, compareSemver } from './compare-versions.js';
import { compareGeneric } from './generic.js';

const triple = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30));
const asText = ([a, b, c]: [number, number, number]) => `${a}.${b}.${c}`;
const tupleOrder = (x: number[], y: number[]) => {
  for (let index = 0; index < Math.max(x.length, y.length); index++) {
    const difference = (x[index] ?? 0) - (y[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
};

describe('version order per ecosystem', () => {
  test.each([
    ['npm', '1.2.3', '1.2.10', -1],
    ['npm', '1.0.0-alpha', '1.0.0', -1],
    ['npm', '1.0.0-alpha.1', '1.0.0-alpha.beta', -1],
    ['npm', '1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['npm', '1.0.0+build.5', '1.0.0', 0],
    ['crates.io', '0.6.14', '0.6.3', 1],
    ['Go', 'v0.6.0', '0.7.0', -1],
    ['Go', 'v1.2.3', '1.2.3', 0],
    ['Go', 'v2.0.0+incompatible', 'v2.0.0', 0],
    ['Go', 'v0.0.0-20230101000000-abcdef123456', 'v0.0.1', -1],
    ['PyPI', '1.0.dev0', '1.0a1', -1],
    ['PyPI', '1.0a1', '1.0b1', -1],
    ['PyPI', '1.0b2', '1.0rc1', -1],
    ['PyPI', '1.0rc1', '1.0', -1],
    ['PyPI', '1.0', '1.0.post1', -1],
    ['PyPI', '1.0', '1.0.0', 0],
    ['PyPI', '3.2', '3.2.0', 0],
    ['PyPI', '1.0.post1.dev1', '1.0.post1', -1],
    ['PyPI', '1!0.1', '2.0', 1],
    ['PyPI', '1.0-alpha-1', '1.0a1', 0],
    ['PyPI', '1.0+local.1', '1.0', 1],
    ['RubyGems', '1.0.0.pre1', '1.0.0', -1],
    ['RubyGems', '1.0', '1.0.0', 0],
    ['RubyGems', '1.0.a', '1.0.b', -1],
    ['RubyGems', '2.0.0.rc1', '1.9', 1],
    ['RubyGems', '1.0.0-beta', '1.0.0', -1],
    ['Maven', '1.0-beta', '1.0', -1],
    ['Packagist', '5.2.1', '5.10.0', -1],
  ] as const)('%s: %s vs %s is %i', (ecosystem, a, b, expected) => {
    const compare = comparatorFor(ecosystem);
    expect(compare(a, b)).toBe(expected);
    expect(compare(b, a)).toBe(expected === 0 ? 0 : -expected);
  });

  test('semver release order is the order of the numbers', () => {
    fc.assert(fc.property(triple, triple, (a, b) => compareSemver(asText(a), asText(b)) === tupleOrder(a, b)));
  });

  test('PEP 440 release order ignores trailing zeros', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(20), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(20), { minLength: 1, maxLength: 5 }),
        (a, b) => {
          return comparePep440(a.join('.'), b.join('.')) === tupleOrder(a, b);
        },
      ),
    );
  });

  test('RubyGems and the generic order agree with the numbers on plain releases', () => {
    fc.assert(
      fc.property(triple, triple, (a, b) => {
        return (
          compareRubygems(asText(a), asText(b)) === tupleOrder(a, b) &&
          compareGeneric(asText(a), asText(b)) === tupleOrder(a, b)
        );
      }),
    );
  });

  test('a pre-release sorts before its release in every ecosystem that has them', () => {
    fc.assert(
      fc.property(triple, fc.constantFrom('alpha', 'beta', 'rc'), fc.nat(9), (release, tag, n) => {
        const version = asText(release);
        return (
          compareSemver(`${version}-${tag}.${n}`, version) === -1 &&
          comparePep440(`${version}${tag}${n}`, version) === -1 &&
          compareRubygems(`${version}.${tag}${n}`, version) === -1
        );
      }),
    );
  });

  test('unparsable versions compare as null rather than as a guess', () => {
    expect(compareSemver('not-a-version', '1.0.0')).toBeNull();
    expect(comparePep440('1.0.0.x!!', '1.0')).toBeNull();
  });
});

describe('isInRange (the OSV evaluation)', () => {
  test('introduced a, fixed b contains exactly a ≤ v < b', () => {
    fc.assert(
      fc.property(triple, triple, triple, (a, b, v) => {
        const [low, high] = tupleOrder(a, b) <= 0 ? [a, b] : [b, a];
        const range = { type: 'SEMVER', events: [{ introduced: asText(low) }, { fixed: asText(high) }] };
        const expected = tupleOrder(v, low) >= 0 && tupleOrder(v, high) < 0;
        return isInRange(asText(v), range, compareSemver) === expected;
      }),
      { numRuns: 500 },
    );
  });

  test('introduced 0, last_affected b contains exactly v ≤ b', () => {
    fc.assert(
      fc.property(triple, triple, (b, v) => {
        const range = { type: 'ECOSYSTEM', events: [{ introduced: '0' }, { last_affected: asText(b) }] };
        return isInRange(asText(v), range, compareSemver) === tupleOrder(v, b) <= 0;
      }),
    );
  });

  test('several introduced/fixed pairs in one range, events in any order', () => {
    const range = {
      type: 'ECOSYSTEM',
      events: [{ fixed: '1.2.6' }, { introduced: '0' }, { introduced: '1.0.0' }, { fixed: '0.2.4' }],
    };
    const inside = (version: string) => isInRange(version, range, compareSemver);
    expect(['0.1.0', '0.2.3', '1.0.0', '1.2.0', '1.2.5'].map(inside)).toEqual([true, true, true, true, true]);
    expect(['0.2.4', '0.9.0', '1.2.6', '2.0.0'].map(inside)).toEqual([false, false, false, false]);
  });

  test('a limit bounds the range', () => {
    const range = { type: 'SEMVER', events: [{ introduced: '0' }, { limit: '2.0.0' }] };
    expect(isInRange('1.9.9', range, compareSemver)).toBe(true);
    expect(isInRange('2.0.0', range, compareSemver)).toBe(false);
  });
});

describe("GitHub's range syntax", () => {
  test.each([
    ['< 4.17.21', { events: [{ introduced: '0' }, { fixed: '4.17.21' }], versions: [] }],
    ['>= 3.2, < 3.2.4', { events: [{ introduced: '3.2' }, { fixed: '3.2.4' }], versions: [] }],
    ['<= 1.2.3', { events: [{ introduced: '0' }, { last_affected: '1.2.3' }], versions: [] }],
    ['= 1.0.0', { events: [], versions: ['1.0.0'] }],
  ])('%s', (range, expected) => {
    expect(githubRangeToOsv(range)).toEqual(expected);
  });
});

describe('CVSS v3 base score', () => {
  test.each([
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
    ['CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H', 7.2],
    ['CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:H/A:H', 7.4],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
    ['CVSS:3.0/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:N', 0],
    ['CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', null],
    ['AV:N/AC:L/Au:N/C:P/I:P/A:P', null],
  ])('%s → %s', (vector, score) => {
    expect(cvss3BaseScore(vector)).toBe(score);
  });
});
