import { readFileSync } from 'node:fs';
import { packageFile, packageManifest } from './package-files.js';

/** Read once from our own package.json. */
export const TOLLGATE_VERSION: string = (() => {
  try {
    const manifest = packageManifest() ?? (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as object);
    const { version } = manifest as { version?: unknown };
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
