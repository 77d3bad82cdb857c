import { mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../core/errors.js';
import { writeFileAtomic } from '../core/state/atomic-write.js';
import { compareText } from '../core/text-order.js';
import { type PolicyFileReader, readFromDisk } from './imported-suppressions.js';
import type { SecretFinding } from './to-finding.js';

/**
 * Known findings that no longer block, keyed by fingerprint (detect-secrets' baseline flow). The file holds
 * fingerprints, rule ids and places, never a secret or a masked value.
 */
const baselineSchema = z.object({
  version: z.literal(1),
  findings: z.array(
    z.object({
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
      ruleId: z.string(),
      path: z.string(),
      line: z.number(),
    }),
  ),
});
export type SecretsBaseline = z.output<typeof baselineSchema>;

export function baselinePath(repoRoot: string, configured: string): string {
  return isAbsolute(configured) ? configured : join(repoRoot, configured);
}

/** The fingerprints in the baseline; an absent file is an empty baseline, a malformed one an error naming it. */
export async function readBaseline(
  path: string,
  label: string,
  read: PolicyFileReader = readFromDisk,
): Promise<Set<string>> {
  return new Set((await readBaselineEntries(path, label, read)).map((entry) => entry.fingerprint));
}

/** The baseline's entries, as written: fingerprint, rule, and where the finding was when it was recorded. */
export async function readBaselineEntries(
  path: string,
  label: string,
  read: PolicyFileReader = readFromDisk,
): Promise<SecretsBaseline['findings']> {
  let text: string;
  try {
    const bytes = await read(path);
    if (bytes === null) return [];
    text = bytes.toString('utf8');
  } catch (error) {
    throw new TollgateError(
      'io',
      `${label}: cannot read the secrets baseline (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TollgateError('config', `${label}: not JSON; rewrite it with \`tollgate scan --all --baseline-write\``);
  }
  const result = baselineSchema.safeParse(parsed);
  if (!result.success) {
    throw new TollgateError('config', `${label}: not a secrets baseline (expected {"version":1,"findings":[…]})`);
  }
  return result.data.findings;
}

type BaselineEntry = SecretsBaseline['findings'][number];

export async function writeBaseline(
  path: string,
  findings: ReadonlyArray<Pick<SecretFinding, keyof BaselineEntry>>,
): Promise<void> {
  const baseline: SecretsBaseline = {
    version: 1,
    findings: [...findings]
      .sort((a, b) => compareText(a.path, b.path) || a.line - b.line)
      .map(({ fingerprint, ruleId, path: file, line }) => ({ fingerprint, ruleId, path: file, line })),
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(baseline, null, 2)}\n`, { mode: 0o644 });
}
