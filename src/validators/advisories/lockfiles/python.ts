import { z } from 'zod';
import type { PackageVersion } from '../ecosystems.js';
import { LockfileError, parseJsonLockfile } from './lockfile-error.js';
import { tomlPackageTables } from './toml-packages.js';

/**
 * requirements*.txt: only exact pins (`name==1.2.3`, `name[extra]===1.2.3`) name a version; ranges, URLs, `-r`
 * includes and options are left out. https://pip.pypa.io/en/stable/reference/requirements-file-format/
 */
const PIN = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*===?\s*([A-Za-z0-9][A-Za-z0-9.!+_-]*)\s*(?:;.*)?$/;

export function parseRequirements(text: string): PackageVersion[] {
  const found: PackageVersion[] = [];
  for (const raw of text.split('\n')) {
    const line = raw
      .replace(/(^|\s)#.*$/, '')
      .replace(/\s+--hash=\S+/g, '')
      .replace(/\\$/, '')
      .trim();
    if (line === '' || line.startsWith('-')) continue;
    const match = PIN.exec(line);
    if (match) found.push({ ecosystem: 'PyPI', name: match[1]!, version: match[2]! });
  }
  return found;
}

/** poetry.lock: `[[package]]` tables with `name` and `version`. */
export function parsePoetryLock(text: string): PackageVersion[] {
  return tomlPackageTables(text, 'poetry.lock').map((table) => ({
    ecosystem: 'PyPI' as const,
    name: table.name,
    version: table.version,
  }));
}

/**
 * uv.lock: `[[package]]` tables; those from a package index (`source = { registry = "…" }`) are dependencies, the
 * project's own (`editable`, `virtual`, `directory`, `path`) and git ones (no PyPI version to look up) are left out.
 * https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile
 */
export function parseUvLock(text: string): PackageVersion[] {
  return tomlPackageTables(text, 'uv.lock')
    .filter((table) => typeof table.source === 'object' && 'registry' in table.source)
    .map((table) => ({ ecosystem: 'PyPI' as const, name: table.name, version: table.version }));
}

/** Pipfile.lock: `default` and `develop` map names to `{ "version": "==1.2.3" }`. */
const pipfileSchema = z.object({
  default: z.record(z.string(), z.object({ version: z.string().optional() })).default({}),
  develop: z.record(z.string(), z.object({ version: z.string().optional() })).default({}),
});

export function parsePipfileLock(text: string): PackageVersion[] {
  const parsed = pipfileSchema.safeParse(parseJsonLockfile(text));
  if (!parsed.success) throw new LockfileError(`not a Pipfile.lock: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const found: PackageVersion[] = [];
  for (const section of [parsed.data.default, parsed.data.develop]) {
    for (const [name, entry] of Object.entries(section)) {
      const version = entry.version?.replace(/^===?/, '');
      if (version) found.push({ ecosystem: 'PyPI', name, version });
    }
  }
  return found;
}
