import { rename } from 'node:fs/promises';
import { z } from 'zod';
import { TollgateError } from '../errors.js';
import { lazy } from '../lazy.js';
import { forgedFileMessage, readSignedJsonFile, writeSignedJsonFile } from './signed-json-file.js';
import { TOLLGATE_DIR, tollgatePaths } from './tollgate-dir.js';
import { waiverRecordSchema } from './waiver-record.js';

/**
 * `.tollgate/waivers.json`: this clone's waivers, signed with the user's state key (`state-key.ts`). A file edited
 * outside tollgate, or copied from another machine, is refused: it waives nothing. One from a tollgate before
 * signatures waives nothing either (record those waivers again); neither is an error, the findings simply block.
 */
export const WAIVERS_LABEL = `${TOLLGATE_DIR}/waivers.json`;
const WAIVERS_VERSION = 1;

const waiversFileSchema = lazy(() =>
  z.looseObject({
    version: z.literal(WAIVERS_VERSION),
    waivers: z.array(waiverRecordSchema()),
  }),
);
export type WaiversFile = z.output<ReturnType<typeof waiversFileSchema>>;

export type WaiversWarning = (message: string) => void;
const warnOnStderr: WaiversWarning = (message) => process.stderr.write(`tollgate: warning: ${message}\n`);

/** Named once per process. */
const warned = new Set<string>();

function emptyFile(): WaiversFile {
  return { version: WAIVERS_VERSION, waivers: [] };
}

/**
 * The local waivers. A corrupt file is an error, not a fresh start: it holds people's decisions and reasons, and the
 * next write would destroy them. A forged or unsigned one counts as no waivers, with a one-line warning.
 */
export async function readLocalWaivers(
  repoRoot: string,
  options: { onWarning?: WaiversWarning } = {},
): Promise<{ file: WaiversFile; untrusted: 'forged' | 'unsigned' | null }> {
  const path = tollgatePaths(repoRoot).waiversPath;
  const read = await readSignedJsonFile(path, waiversFileSchema(), 'waivers');
  switch (read.kind) {
    case 'ok':
      return { file: read.value, untrusted: null };
    case 'missing':
      return { file: emptyFile(), untrusted: null };
    case 'corrupt':
      throw new TollgateError('io', `${WAIVERS_LABEL}: ${read.problem}; fix it, or delete it to drop every waiver`);
    case 'forged':
    case 'unsigned': {
      if (!warned.has(`${path}:${read.kind}`)) {
        warned.add(`${path}:${read.kind}`);
        (options.onWarning ?? warnOnStderr)(
          read.kind === 'forged'
            ? forgedFileMessage(WAIVERS_LABEL, 'none of its waivers apply')
            : `${WAIVERS_LABEL}: written by an older tollgate, without a signature; none of its waivers apply (record them again with tollgate waive)`,
        );
      }
      return { file: emptyFile(), untrusted: read.kind };
    }
  }
}

/**
 * Writes the file, signed. An untrusted file read before is first moved aside to `waivers.json.rejected`, so its
 * reasons stay there for a look instead of being overwritten.
 */
export async function writeLocalWaivers(
  repoRoot: string,
  file: WaiversFile,
  untrusted: 'forged' | 'unsigned' | null,
): Promise<void> {
  const path = tollgatePaths(repoRoot).waiversPath;
  if (untrusted) await rename(path, `${path}.rejected`);
  await writeSignedJsonFile(path, 'waivers', file, { label: WAIVERS_LABEL });
}
