/**
 * Package ecosystems, named as OSV names them (https://ossf.github.io/osv-schema/#affectedpackage-field), with the
 * spellings users type (`pypi:django@3.2`, `cargo:serde@1.0`) and GitHub's GraphQL `SecurityAdvisoryEcosystem`.
 */
const ECOSYSTEMS = ['npm', 'PyPI', 'Go', 'crates.io', 'RubyGems', 'Packagist', 'Maven', 'NuGet'] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];

const ALIASES: Record<string, Ecosystem> = {
  npm: 'npm',
  pypi: 'PyPI',
  pip: 'PyPI',
  python: 'PyPI',
  go: 'Go',
  golang: 'Go',
  'crates.io': 'crates.io',
  crates: 'crates.io',
  cargo: 'crates.io',
  rust: 'crates.io',
  rubygems: 'RubyGems',
  gem: 'RubyGems',
  ruby: 'RubyGems',
  packagist: 'Packagist',
  composer: 'Packagist',
  php: 'Packagist',
  maven: 'Maven',
  nuget: 'NuGet',
};

export const ECOSYSTEM_SPELLINGS = Object.keys(ALIASES);

export function ecosystemFromName(name: string): Ecosystem | undefined {
  return ALIASES[name.toLowerCase()];
}

/** GitHub's `SecurityAdvisoryEcosystem` enum value. */
export const GITHUB_ECOSYSTEM: Record<Ecosystem, string> = {
  npm: 'NPM',
  PyPI: 'PIP',
  Go: 'GO',
  'crates.io': 'RUST',
  RubyGems: 'RUBYGEMS',
  Packagist: 'COMPOSER',
  Maven: 'MAVEN',
  NuGet: 'NUGET',
};

/**
 * The form of a package name two sources agree on: PyPI names are case-insensitive with `-`, `_` and `.` equal
 * (PEP 503); NuGet and Packagist names are case-insensitive; the others are compared as written.
 */
export function normalizePackageName(ecosystem: Ecosystem, name: string): string {
  switch (ecosystem) {
    case 'PyPI':
      return name.toLowerCase().replace(/[-_.]+/g, '-');
    case 'NuGet':
    case 'Packagist':
      return name.toLowerCase();
    default:
      return name;
  }
}

/** A dependency at one version: the unit every source is asked about. */
export interface PackageVersion {
  ecosystem: Ecosystem;
  name: string;
  /** The exact version; with `range`, the range spec as a manifest writes it (`^4.17.0`, `>=2,<3`). */
  version: string;
  /** A manifest range without a lockfile: every advisory affecting any version it admits is reported. */
  range?: true;
}

export function packageKey(pkg: PackageVersion): string {
  return `${pkg.ecosystem}\0${normalizePackageName(pkg.ecosystem, pkg.name)}\0${pkg.version}`;
}

export function describePackage(pkg: PackageVersion): string {
  return `${pkg.name}@${pkg.version} (${pkg.ecosystem})`;
}
