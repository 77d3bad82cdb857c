import { parse as parseToml } from 'smol-toml';
import type { Ecosystem } from './ecosystems.js';
import { LockfileError } from './lockfiles/lockfile-error.js';

/**
 * Manifests: where people write the dependencies they want (package.json, requirements*.txt, pyproject.toml,
 * Cargo.toml, Gemfile), as exact versions or as ranges. Without a lockfile beside them, a manifest is all there is to
 * check, so a dependency added there must not go unnoticed.
 */
export interface ManifestEntry {
  ecosystem: Ecosystem;
  name: string;
  /** As written: `4.17.15`, `^4.17.0`, `>=2.0,<3`, `~> 7.1`. */
  spec: string;
}

export type ManifestParser = (text: string) => ManifestEntry[];

/** The lockfiles that pin a manifest's ecosystem, by the manifest's name: with one of them beside it, it wins. */
export const LOCKFILES_FOR: Record<string, readonly string[]> = {
  'package.json': ['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'deno.lock'],
  'pyproject.toml': ['poetry.lock', 'uv.lock', 'Pipfile.lock'],
  'requirements.txt': ['poetry.lock', 'uv.lock', 'Pipfile.lock'],
  'Cargo.toml': ['Cargo.lock'],
  Gemfile: ['Gemfile.lock'],
};

const NPM_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
/** Specs that do not come from the registry (a path, a git URL, a workspace link): nothing to look up. */
const NPM_NOT_REGISTRY = /^(?:file:|link:|workspace:|git\+|git:|github:|https?:|npm:|portal:|patch:)|\//;

function parsePackageJson(text: string): ManifestEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new LockfileError(`not valid JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null) throw new LockfileError('expected a JSON object');
  const entries: ManifestEntry[] = [];
  for (const section of NPM_SECTIONS) {
    const deps = (json as Record<string, unknown>)[section];
    if (typeof deps !== 'object' || deps === null) continue;
    for (const [name, spec] of Object.entries(deps)) {
      if (typeof spec === 'string' && !NPM_NOT_REGISTRY.test(spec.trim())) {
        entries.push({ ecosystem: 'npm', name, spec: spec.trim() || '*' });
      }
    }
  }
  return entries;
}

/** PEP 508: `name [extras] specifiers ; markers`. */
const PEP508 = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;@]*)/;

function pep508(requirement: string): ManifestEntry | null {
  const match = PEP508.exec(requirement.trim());
  if (!match) return null;
  return { ecosystem: 'PyPI', name: match[1]!, spec: match[2]!.trim().replace(/^\((.*)\)$/, '$1') || '*' };
}

function parseRequirementsRanges(text: string): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  for (const raw of text.split('\n')) {
    const line = raw
      .replace(/(^|\s)#.*$/, '')
      .replace(/\s+--hash=\S+/g, '')
      .trim();
    if (line === '' || line.startsWith('-') || line.includes('://')) continue;
    const entry = pep508(line);
    if (entry) entries.push(entry);
  }
  return entries;
}

function tomlOf(text: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    throw new LockfileError(`not valid TOML (${(error as Error).message.split('\n')[0]})`);
  }
}

function parsePyproject(text: string): ManifestEntry[] {
  const toml = tomlOf(text);
  const entries: ManifestEntry[] = [];
  const project = toml.project as { dependencies?: unknown } | undefined;
  if (Array.isArray(project?.dependencies)) {
    for (const requirement of project.dependencies) {
      const entry = typeof requirement === 'string' ? pep508(requirement) : null;
      if (entry) entries.push(entry);
    }
  }
  const poetry = (toml.tool as { poetry?: { dependencies?: Record<string, unknown> } } | undefined)?.poetry;
  for (const [name, value] of Object.entries(poetry?.dependencies ?? {})) {
    if (name.toLowerCase() === 'python') continue;
    const spec = typeof value === 'string' ? value : (value as { version?: unknown } | null)?.version;
    if (typeof spec === 'string') entries.push({ ecosystem: 'PyPI', name, spec });
  }
  return entries;
}

function parseCargoToml(text: string): ManifestEntry[] {
  const toml = tomlOf(text);
  const entries: ManifestEntry[] = [];
  for (const section of ['dependencies', 'dev-dependencies', 'build-dependencies']) {
    const deps = toml[section] as Record<string, unknown> | undefined;
    for (const [name, value] of Object.entries(deps ?? {})) {
      const table = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
      if (table && (table.path !== undefined || table.git !== undefined)) continue;
      const spec = typeof value === 'string' ? value : table?.version;
      if (typeof spec === 'string')
        entries.push({ ecosystem: 'crates.io', name: String(table?.package ?? name), spec });
    }
  }
  return entries;
}

const GEM = /^\s*gem\s+['"]([^'"]+)['"]((?:\s*,\s*['"][^'"]*['"])*)/;

function parseGemfile(text: string): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  for (const line of text.split('\n')) {
    const match = GEM.exec(line);
    if (!match) continue;
    const specs = [...match[2]!.matchAll(/['"]([^'"]*)['"]/g)].map((found) => found[1]!);
    entries.push({ ecosystem: 'RubyGems', name: match[1]!, spec: specs.join(', ') || '*' });
  }
  return entries;
}

const REQUIREMENTS = /^requirements.*\.txt$/;

export function manifestParserFor(path: string): { parser: ManifestParser; kind: string } | undefined {
  if (/(^|\/)(node_modules|vendor|\.venv|venv|site-packages)\//.test(path)) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (REQUIREMENTS.test(name)) return { parser: parseRequirementsRanges, kind: 'requirements.txt' };
  const parser: Record<string, ManifestParser> = {
    'package.json': parsePackageJson,
    'pyproject.toml': parsePyproject,
    'Cargo.toml': parseCargoToml,
    Gemfile: parseGemfile,
  };
  return parser[name] ? { parser: parser[name], kind: name } : undefined;
}

/**
 * The exact version a spec pins, or null for a range: `4.17.15` and `=4.17.15` (npm), `==1.2.3` (PyPI),
 * `=1.2.3` (Cargo, whose bare `1.2.3` means `^1.2.3`), `= 1.2.3` or a bare `1.2.3` (RubyGems).
 */
export function exactVersion(ecosystem: Ecosystem, spec: string): string | null {
  const trimmed = spec.trim();
  const version = /^\d+(?:\.\d+)*(?:[-+][0-9A-Za-z.-]+)?$/;
  switch (ecosystem) {
    case 'npm': {
      const bare = trimmed.replace(/^=\s*/, '').replace(/^v/, '');
      return version.test(bare) ? bare : null;
    }
    case 'PyPI': {
      const match = /^===?\s*([^,;\s*]+)$/.exec(trimmed);
      return match ? match[1]! : null;
    }
    case 'crates.io': {
      const match = /^=\s*(\S+)$/.exec(trimmed);
      return match && version.test(match[1]!) ? match[1]! : null;
    }
    case 'RubyGems': {
      const bare = trimmed.replace(/^=\s*/, '');
      return version.test(bare) ? bare : null;
    }
    default:
      return null;
  }
}
