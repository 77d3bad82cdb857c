import type { Ecosystem } from '../ecosystems.js';
import { compareGeneric } from './generic.js';
import { comparePep440Parts, parsePep440 } from './pep440.js';
import { compareRubygemsSegments, parseRubygems } from './rubygems.js';
import { compareSemverParts, parseSemver } from './semver.js';

/** Orders two versions of one ecosystem; null when either is not a version that ecosystem understands. */
export type VersionComparator = (a: string, b: string) => number | null;

export const compareSemver: VersionComparator = (a, b) => {
  const left = parseSemver(a);
  const right = parseSemver(b);
  return left && right ? compareSemverParts(left, right) : null;
};

export const comparePep440: VersionComparator = (a, b) => {
  const left = parsePep440(a);
  const right = parsePep440(b);
  return left && right ? comparePep440Parts(left, right) : null;
};

export const compareRubygems: VersionComparator = (a, b) => {
  const left = parseRubygems(a);
  const right = parseRubygems(b);
  return left && right ? compareRubygemsSegments(left, right) : null;
};

export function comparatorFor(ecosystem: Ecosystem): VersionComparator {
  switch (ecosystem) {
    case 'npm':
    case 'crates.io':
    case 'Go':
      return compareSemver;
    case 'PyPI':
      return comparePep440;
    case 'RubyGems':
      return compareRubygems;
    case 'Packagist':
    case 'Maven':
    case 'NuGet':
      return compareGeneric;
  }
}
