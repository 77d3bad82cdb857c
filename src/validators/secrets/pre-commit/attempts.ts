import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../../core/state/atomic-write.js';

/**
 * Consecutive blocked commit attempts on the same set of findings, kept in `.git/tollgate/pre-commit-attempts.json`
 * (fingerprints hashed together, never secrets). A different set starts over at 1; a clean commit clears it.
 */
interface AttemptsRecord {
  findingsKey: string;
  count: number;
}

function findingsKey(fingerprints: readonly string[]): string {
  return createHash('sha256')
    .update([...fingerprints].sort().join('\n'))
    .digest('hex');
}

export async function countAttempt(path: string, fingerprints: readonly string[]): Promise<number> {
  const key = findingsKey(fingerprints);
  const previous = await readFile(path, 'utf8')
    .then((text) => JSON.parse(text) as AttemptsRecord)
    .catch(() => null);
  const count = previous?.findingsKey === key ? previous.count + 1 : 1;
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, JSON.stringify({ findingsKey: key, count } satisfies AttemptsRecord));
  return count;
}

const CLEARED = JSON.stringify({ findingsKey: '', count: 0 } satisfies AttemptsRecord);

/**
 * Every clean commit clears the count. A file that already says so is left as it is: the write is durable (an fsync of
 * the file and one of its folder), which each commit after a clean one paid for nothing.
 */
export async function clearAttempts(path: string): Promise<void> {
  if ((await readFile(path, 'utf8').catch(() => null)) === CLEARED) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, CLEARED);
}
