import { readFileSync } from 'node:fs';
import { packageFile } from './package-files.js';

/** Read once from our own package.json. */
export const TOLLGATE_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
