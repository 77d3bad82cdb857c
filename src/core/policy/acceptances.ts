import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../errors.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { ensureTollgateDir, TOLLGATE_DIR } from '../state/tollgate-dir.js';

/**
 * `.tollgate/policy-accepted.json`: the policy edits a person accepted with `tollgate policy accept`, each as the
 * exact step it accepted: this path, from this base content to this working content (git blob ids; null = no file).
 * Any other edit of the file, or a base that moved to other content, is a new, pending change.
 */
const POLICY_ACCEPTED_FILE = 'policy-accepted.json';

const blobId = z
  .string()
  .regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)
  .nullable();

const acceptanceSchema = z.object({
  path: z.string().min(1),
  from: blobId,
  to: blobId,
  by: z.string(),
  at: z.string(),
});
export type PolicyAcceptance = z.output<typeof acceptanceSchema>;

const fileSchema = z.object({ version: z.literal(1), accepted: z.array(acceptanceSchema) });

export function acceptancesPath(repoRoot: string): string {
  return join(repoRoot, TOLLGATE_DIR, POLICY_ACCEPTED_FILE);
}

/** The recorded acceptances; none when the file is absent. A file that is not ours is an error naming it. */
export async function readAcceptances(repoRoot: string): Promise<PolicyAcceptance[]> {
  const path = acceptancesPath(repoRoot);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new TollgateError(
      'io',
      `${TOLLGATE_DIR}/${POLICY_ACCEPTED_FILE}: cannot read (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  let parsed: ReturnType<typeof fileSchema.safeParse>;
  try {
    parsed = fileSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = { success: false } as ReturnType<typeof fileSchema.safeParse>;
  }
  if (!parsed.success) {
    throw new TollgateError(
      'config',
      `${TOLLGATE_DIR}/${POLICY_ACCEPTED_FILE}: not a record of accepted policy changes; delete it and accept again with \`tollgate policy accept\``,
    );
  }
  return parsed.data.accepted;
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
  await writeFileAtomic(acceptancesPath(repoRoot), `${JSON.stringify(file, null, 2)}\n`);
}
