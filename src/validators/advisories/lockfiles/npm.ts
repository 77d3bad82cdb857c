import { z } from 'zod';
import type { PackageVersion } from '../ecosystems.js';
import { LockfileError, parseJsonLockfile } from './lockfile-error.js';

/**
 * package-lock.json and npm-shrinkwrap.json. v2/v3 list every installed package under `packages`, keyed by its path
 * (`node_modules/a/node_modules/b`); v1 nests `dependencies`. Links (workspaces, `file:`) and the root are not
 * registry packages and are left out. https://docs.npmjs.com/cli/v10/configuring-npm/package-lock-json
 */
const v1DependencySchema: z.ZodType<{ version?: string; dependencies?: Record<string, unknown> }> = z.lazy(() =>
  z.object({ version: z.string().optional(), dependencies: z.record(z.string(), v1DependencySchema).optional() }),
);

const lockSchema = z.object({
  lockfileVersion: z.number().int().optional(),
  packages: z
    .record(
      z.string(),
      z.object({ name: z.string().optional(), version: z.string().optional(), link: z.boolean().optional() }),
    )
    .optional(),
  dependencies: z.record(z.string(), v1DependencySchema).optional(),
});

const REGISTRY_VERSION = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?$/;

export function parseNpmLock(text: string): PackageVersion[] {
  const parsed = lockSchema.safeParse(parseJsonLockfile(text));
  if (!parsed.success) throw new LockfileError(`not a package-lock: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const lock = parsed.data;
  const found: PackageVersion[] = [];
  if (lock.packages) {
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '' || entry.link || !entry.version) continue;
      const cut = path.lastIndexOf('node_modules/');
      if (cut < 0) continue; // a workspace folder, not an installed package
      const name = entry.name ?? path.slice(cut + 'node_modules/'.length);
      if (REGISTRY_VERSION.test(entry.version)) found.push({ ecosystem: 'npm', name, version: entry.version });
    }
    return found;
  }
  const walk = (dependencies: Record<string, { version?: string; dependencies?: Record<string, unknown> }>) => {
    for (const [name, entry] of Object.entries(dependencies)) {
      if (entry.version && REGISTRY_VERSION.test(entry.version))
        found.push({ ecosystem: 'npm', name, version: entry.version });
      if (entry.dependencies) walk(entry.dependencies as Record<string, { version?: string }>);
    }
  };
  walk(lock.dependencies ?? {});
  return found;
}
