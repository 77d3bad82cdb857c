import { parse as parseYaml } from 'yaml';
import type { PackageVersion } from '../ecosystems.js';
import { LockfileError } from './lockfile-error.js';

/**
 * pnpm-lock.yaml. The `packages` keys name each package: `/name/1.2.3` (lockfile v5), `/name@1.2.3` (v6),
 * `name@1.2.3` (v9), with an optional peer suffix `(react@18.2.0)` or `_react@18.2.0`.
 */
const KEY = /^\/?((?:@[^/@]+\/)?[^/@()_]+)[@/](\d[^()_]*)/;

export function parsePnpmLock(text: string): PackageVersion[] {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new LockfileError(
      `not valid YAML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
  }
  if (typeof document !== 'object' || document === null) throw new LockfileError('expected a YAML mapping');
  const packages = (document as { packages?: unknown }).packages;
  if (packages === undefined) return [];
  if (typeof packages !== 'object' || packages === null) throw new LockfileError('`packages` is not a mapping');
  const found: PackageVersion[] = [];
  for (const key of Object.keys(packages)) {
    const match = KEY.exec(key);
    if (match) found.push({ ecosystem: 'npm', name: match[1]!, version: match[2]! });
  }
  return found;
}
