import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { TOLLGATE_DIR } from '../state/tollgate-dir.js';

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A file name for a session key: the key itself when it is tame, else a hash of it (agents' ids are not ours). */
export function sessionFileName(key: string): string {
  if (SAFE_KEY.test(key) && !key.includes('..')) return `${key}.json`;
  return `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`;
}

/** `.tollgate/sessions/<key>.json`. Kept free of heavy imports: the stop hook's fast path reads it. */
export function sessionPath(repoRoot: string, key: string): string {
  return join(repoRoot, TOLLGATE_DIR, 'sessions', sessionFileName(key));
}
