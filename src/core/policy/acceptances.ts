import { join } from 'node:path';
import { z } from 'zod';
import { lazy } from '../lazy.js';
import { forgedFileMessage, readSignedJsonFile, writeSignedJsonFile } from '../state/signed-json-file.js';
import { ensureTollgateDir, TOLLGATE_DIR } from '../state/tollgate-dir.js';

/**
 * `.tollgate/policy-accepted.json`: the policy edits a person accepted with `tollgate policy accept`, each as the
 * exact step it accepted: this path, from this base content to this working content (git blob ids; null = no file).
 * Any other edit of the file, or a base that moved to other content, is a new, pending change.
 */
const POLICY_ACCEPTED_FILE = 'policy-accepted.json';
const LABEL = `${TOLLGATE_DIR}/${POLICY_ACCEPTED_FILE}`;

const blobId = () =>
  z
    .string()
    .regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)
    .nullable();

const acceptanceSchema = () =>
  z.object({
    path: z.string().min(1),
    from: blobId(),
    to: blobId(),
    by: z.string(),
    at: z.string(),
  });
export type PolicyAcceptance = z.output<ReturnType<typeof acceptanceSchema>>;

// Built on first use: most runs never read the file (start-up: no run pays for a schema it never uses).
const fileSchema = lazy(() => z.object({ version: z.literal(1), accepted: z.array(acceptanceSchema()) }));

export function acceptancesPath(repoRoot: string): string {
  return join(repoRoot, TOLLGATE_DIR, POLICY_ACCEPTED_FILE);
}

/**
 * The recorded acceptances; none when the file is absent. The file is signed with the user's state key like the rest
 * of the state: an acceptance written by hand (or by an agent) is not a person's, so a forged, unsigned or unreadable
 * file accepts nothing, and the pending edits stay findings.
 */
export async function readAcceptances(
  repoRoot: string,
  onWarning?: (message: string) => void,
): Promise<PolicyAcceptance[]> {
  const read = await readSignedJsonFile(acceptancesPath(repoRoot), fileSchema(), 'policy-accepted');
  if (read.kind === 'ok') return read.value.accepted;
  if (read.kind === 'forged') onWarning?.(forgedFileMessage(LABEL, 'no policy edit counts as accepted'));
  if (read.kind === 'corrupt') onWarning?.(`${LABEL}: ${read.problem}; no policy edit counts as accepted`);
  return [];
}

export function isAccepted(
  accepted: readonly PolicyAcceptance[],
  step: { path: string; from: string | null; to: string | null },
): boolean {
  return accepted.some((entry) => entry.path === step.path && entry.from === step.from && entry.to === step.to);
}

/** Adds these steps (replacing earlier ones for the same paths), atomically. */
export async function recordAcceptances(repoRoot: string, steps: readonly PolicyAcceptance[]): Promise<void> {
  ensureTollgateDir(repoRoot);
  const paths = new Set(steps.map((step) => step.path));
  const kept = (await readAcceptances(repoRoot)).filter((entry) => !paths.has(entry.path));
  const file = { version: 1 as const, accepted: [...kept, ...steps] };
  await writeSignedJsonFile(acceptancesPath(repoRoot), 'policy-accepted', file, { label: LABEL });
}
