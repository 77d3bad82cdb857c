import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazy } from './lazy.js';

/**
 * The folder of tollgate's own package (where package.json, docs/ and templates/ ship), found by walking up from this
 * module. Walking up, rather than a fixed `../..`, keeps it right from src/, dist/ and the bundled dist/bundle/ alike.
 * Found on first use: most runs never ask.
 */
const packageRoot = lazy((): string => {
  const here = moduleDir();
  let dir = here;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
        if (parsed.name === 'tollgate') {
          foundManifest = parsed;
          return dir;
        }
      } catch {
        // Not ours (or unreadable): keep walking.
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return join(here, '..', '..');
    dir = parent;
  }
});

/** This module's folder: `import.meta.dirname` where Node has it (20.11 and later; no URL to build), else from the URL. */
function moduleDir(): string {
  return import.meta.dirname ?? dirname(fileURLToPath(import.meta.url));
}

/** The package.json `packageRoot` found (read once: the version is read from it on every start). */
let foundManifest: Record<string, unknown> | undefined;

/** tollgate's own package.json, parsed; undefined when the package root was not found by its manifest. */
export function packageManifest(): Record<string, unknown> | undefined {
  packageRoot();
  return foundManifest;
}

/** Absolute path of a file shipped with the package, e.g. `packageFile('docs/config.md')`. */
export function packageFile(relative: string): string {
  return join(packageRoot(), relative);
}
