import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ScanTarget } from '../../secrets/scan-targets.js';
import { listFilesUnder } from '../../secrets/sources/walk.js';

/**
 * Explicit paths that lead outside the repository: by name (`../x`, an absolute path elsewhere), or through a
 * symbolic link on the way (`link/file` where `link` points out). Paths that do not exist are reported later.
 */
export async function pathsOutside(repoRoot: string, paths: readonly string[]): Promise<string[]> {
  const realRoot = await realpath(repoRoot).catch(() => repoRoot);
  const outside: string[] = [];
  for (const path of paths) {
    const absolute = resolve(repoRoot, path);
    const real = await realpath(absolute).catch(() => null);
    if (!isInsideDir(repoRoot, absolute) || (real !== null && !isInsideDir(realRoot, real))) outside.push(path);
  }
  return outside;
}

function isInsideDir(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The files under the paths a scoped call names, as they are now (changed or not). */
export async function explicitTargets(repoRoot: string, paths: readonly string[]): Promise<ScanTarget[]> {
  const files = await listFilesUnder(
    repoRoot,
    paths.map((path) => (isAbsolute(path) ? path : resolve(repoRoot, path))),
  );
  return files.map((file) => ({
    path: relative(repoRoot, file.absolute) || file.absolute,
    read: file.read,
    ...(file.skip ? { skip: file.skip } : {}),
  }));
}
