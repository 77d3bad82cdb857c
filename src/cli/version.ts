import { readFileSync } from 'node:fs';

/** Read once from our own package.json, which sits two folders above both src/cli and dist/cli. */
export const TOLLGATE_VERSION: string = (() => {
  try {
    const raw = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    return (JSON.parse(raw) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
