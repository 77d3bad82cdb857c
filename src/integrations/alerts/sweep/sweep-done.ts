/**
 * Resumable sweeps: one directory per alert, with `done.json` written last and atomically. An alert counts as decided
 * only when done.json exists and its key (the alert's `updated_at` and the config hash) matches this run's inputs;
 * anything else is an interrupted or stale result, cleared and redone.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../../../core/errors.js';
import { readJsonFileResult, writeFileAtomic } from '../../../core/state/atomic-write.js';
import { FULL_NAME } from './open-alerts-parse.js';

export const DONE_FILE = 'done.json';

const doneSchema = z.object({
  repo: z.string(),
  number: z.number().int().positive(),
  updatedAt: z.string(),
  configHash: z.string(),
});
export type DoneMarker = z.output<typeof doneSchema>;

/** `<out>/<owner>/<repo>/<number>`: one directory per alert, the folder `validate-alert --out <out>` writes. */
export function alertResultDir(out: string, repo: string, number: number): string {
  const [owner = '', name = ''] = repo.split('/');
  const dir = join(out, owner, name, String(number));
  // Names are checked where the API's answer is parsed; this is the last guard before anything is written.
  if (!FULL_NAME.test(repo) || !dir.startsWith(join(out, '/')))
    throw new TollgateError(
      'io',
      `${JSON.stringify(repo)}: not a GitHub repository name; refusing to write outside ${out}`,
    );
  return dir;
}

/** True when this alert was already decided on the same inputs. */
export async function isAlertDone(dir: string, key: DoneMarker): Promise<boolean> {
  const read = await readJsonFileResult(join(dir, DONE_FILE), doneSchema);
  if (read.kind !== 'ok') return false;
  const v = read.value;
  return (
    v.repo === key.repo && v.number === key.number && v.updatedAt === key.updatedAt && v.configHash === key.configHash
  );
}

/** Clears whatever a previous, interrupted or stale attempt left, and returns an empty directory. */
export async function resetAlertDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

/** Marks the alert decided; call only after every other result file is written. */
export async function markAlertDone(dir: string, key: DoneMarker): Promise<void> {
  await writeFileAtomic(join(dir, DONE_FILE), `${JSON.stringify(key, null, 2)}\n`);
}
