import { z } from 'zod';
import type { PackageVersion } from '../ecosystems.js';
import { LockfileError, parseJsonLockfile } from './lockfile-error.js';
import { tomlPackageTables } from './toml-packages.js';

/** Cargo.lock: crates with a `source` (crates.io, git); the workspace's own crates have none and are left out. */
export function parseCargoLock(text: string): PackageVersion[] {
  return tomlPackageTables(text, 'Cargo.lock')
    .filter((table) => typeof table.source === 'string' && table.source.startsWith('registry+'))
    .map((table) => ({ ecosystem: 'crates.io' as const, name: table.name, version: table.version }));
}

/**
 * go.mod `require` lines, single or in a block; `// indirect` requirements count too (they are built in).
 * https://go.dev/ref/mod#go-mod-file-require
 */
export function parseGoMod(text: string): PackageVersion[] {
  const found: PackageVersion[] = [];
  let inBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (inBlock) {
      if (line === ')') inBlock = false;
      else {
        const match = /^(\S+)\s+(v\S+)$/.exec(line);
        if (match) found.push({ ecosystem: 'Go', name: match[1]!, version: match[2]! });
      }
      continue;
    }
    if (/^require\s*\($/.test(line)) inBlock = true;
    else {
      const match = /^require\s+(\S+)\s+(v\S+)$/.exec(line);
      if (match) found.push({ ecosystem: 'Go', name: match[1]!, version: match[2]! });
    }
  }
  return found;
}

/** go.sum: `module version h1:hash` lines for module contents (the `/go.mod`-only lines are left out). */
export function parseGoSum(text: string): PackageVersion[] {
  const found: PackageVersion[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\S+)\s+(v[^\s/]+)\s+h1:/.exec(line.trim());
    if (match) found.push({ ecosystem: 'Go', name: match[1]!, version: match[2]! });
  }
  return found;
}

/** Gemfile.lock: the `specs:` of each source; `name (1.2.3)` or `name (1.2.3-x86_64-linux)` for a platform gem. */
export function parseGemfileLock(text: string): PackageVersion[] {
  const found: PackageVersion[] = [];
  let inSpecs = false;
  let remote = '';
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      inSpecs = false;
      remote = line.trim();
      continue;
    }
    if (line.trim() === 'specs:') {
      inSpecs = remote === 'GEM';
      continue;
    }
    const match = /^ {4}([A-Za-z0-9_.-]+) \(([0-9][^)\s-]*)(?:-[^)]*)?\)$/.exec(line);
    if (inSpecs && match) found.push({ ecosystem: 'RubyGems', name: match[1]!, version: match[2]! });
  }
  return found;
}

/** composer.lock: `packages` and `packages-dev`, versions without the `v` some tags carry. */
const composerSchema = z.object({
  packages: z.array(z.object({ name: z.string(), version: z.string() })).default([]),
  'packages-dev': z.array(z.object({ name: z.string(), version: z.string() })).default([]),
});

export function parseComposerLock(text: string): PackageVersion[] {
  const parsed = composerSchema.safeParse(parseJsonLockfile(text));
  if (!parsed.success) throw new LockfileError(`not a composer.lock: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return [...parsed.data.packages, ...parsed.data['packages-dev']]
    .filter((entry) => !entry.version.startsWith('dev-'))
    .map((entry) => ({ ecosystem: 'Packagist' as const, name: entry.name, version: entry.version.replace(/^v/, '') }));
}
