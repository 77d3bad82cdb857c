import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import { ensureTollgateDir, TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';

/**
 * The last time the stop hook could not decide and let the agent stop anyway (or refused, with
 * `hooks.stop.onError: block`). `tollgate doctor` shows it, so a gate that silently stopped gating is noticed.
 */
const FILE = 'last-fail-open.json';

const failOpenSchema = z.object({
  at: z.string(),
  agent: z.string(),
  why: z.string(),
  decision: z.enum(['allow', 'block']),
});
export type FailOpenRecord = z.output<typeof failOpenSchema>;

export async function recordFailOpen(repoRoot: string, record: FailOpenRecord): Promise<void> {
  try {
    await writeFileAtomic(join(ensureTollgateDir(repoRoot).root, FILE), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  } catch {
    // No .tollgate/ (not set up yet) or a read-only tree: the warning on stderr and in the reply still says it.
  }
}

export function readLastFailOpen(repoRoot: string): FailOpenRecord | null {
  try {
    const parsed = failOpenSchema.safeParse(JSON.parse(readFileSync(join(repoRoot, TOLLGATE_DIR, FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
