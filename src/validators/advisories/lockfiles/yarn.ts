import { parse as parseYaml } from 'yaml';
import type { PackageVersion } from '../ecosystems.js';
import { LockfileError } from './lockfile-error.js';

/**
 * yarn.lock, both formats. Classic (v1) is yarn's own syntax: unindented `"name@range", name@range2:` headers with an
 * indented `version "1.2.3"`. Berry (v2+) is YAML with a `__metadata` entry; each `resolution: "name@npm:1.2.3"`
 * names the registry package (workspaces, links, patches of non-npm sources are not registry packages).
 */
function nameOfDescriptor(descriptor: string): string {
  const trimmed = descriptor.trim().replace(/^"|"$/g, '');
  const at = trimmed.indexOf('@', trimmed.startsWith('@') ? 1 : 0);
  return at < 0 ? trimmed : trimmed.slice(0, at);
}

function parseClassic(text: string): PackageVersion[] {
  const found: PackageVersion[] = [];
  let names: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    if (!line.startsWith(' ')) {
      if (!line.endsWith(':')) throw new LockfileError(`unexpected line ${JSON.stringify(line.slice(0, 80))}`);
      names = [...new Set(line.slice(0, -1).split(',').map(nameOfDescriptor))];
      continue;
    }
    const version = /^ {2}version "?([^"\s]+)"?$/.exec(line);
    if (version && names.length > 0) {
      for (const name of names) found.push({ ecosystem: 'npm', name, version: version[1]! });
      names = [];
    }
  }
  return found;
}

function parseBerry(text: string): PackageVersion[] {
  let document: unknown;
  try {
    document = parseYaml(text, { uniqueKeys: false });
  } catch (error) {
    throw new LockfileError(
      `not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  if (typeof document !== 'object' || document === null) throw new LockfileError('expected a YAML mapping');
  const found: PackageVersion[] = [];
  for (const [key, entry] of Object.entries(document as Record<string, unknown>)) {
    if (key === '__metadata' || typeof entry !== 'object' || entry === null) continue;
    const { resolution, version } = entry as { resolution?: unknown; version?: unknown };
    if (typeof resolution !== 'string' || typeof version !== 'string') continue;
    const match = /^((?:@[^@/]+\/)?[^@]+)@npm:(.+)$/.exec(resolution);
    if (match) found.push({ ecosystem: 'npm', name: match[1]!, version: match[2]! });
  }
  return found;
}

export function parseYarnLock(text: string): PackageVersion[] {
  return /^__metadata:/m.test(text) ? parseBerry(text) : parseClassic(text);
}
