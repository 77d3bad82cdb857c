import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../state/atomic-write.js';
import { ensureTollgateDir, TOLLGATE_DIR } from '../state/tollgate-dir.js';
import { sessionFileName, sessionPath } from './session-path.js';

/**
 * Per-session state in `.tollgate/sessions/<key>.json`: what must survive between calls of one agent session but
 * not between sessions. The MCP server keeps its time budget and circuit breaker here, the stop hook its block
 * counter. A missing or unreadable file reads as a fresh session, which is the safe default for all three.
 */
const sessionSchema = z.looseObject({
  /** Time the session's validation calls have used, against `validation.timeout`. */
  budgetUsedMs: z.number().default(0),
  /**
   * Validation calls in a row that ran out of the server's own time budget; reset by one that did not. A call the
   * client cancelled (or timed out on its side) leaves it as it is.
   */
  consecutiveTimeouts: z.number().int().default(0),
  /** Stop-hook blocks in a row; reset whenever the hook allows. */
  consecutiveBlocks: z.number().int().default(0),
  updatedAt: z.string().default(''),
});
export type SessionState = z.output<typeof sessionSchema>;

export { sessionFileName, sessionPath };

/** Synchronous on purpose: the stop hook reads it on its fast path. */
export function readSession(repoRoot: string, key: string): SessionState {
  try {
    const parsed = sessionSchema.safeParse(JSON.parse(readFileSync(sessionPath(repoRoot, key), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // Missing or torn: a fresh session.
  }
  return sessionSchema.parse({});
}

/** Read-modify-write, written atomically. Calls of one session are sequential, so no lock is taken. */
export async function updateSession(
  repoRoot: string,
  key: string,
  mutate: (session: SessionState) => void,
): Promise<SessionState> {
  const session = readSession(repoRoot, key);
  mutate(session);
  session.updatedAt = new Date().toISOString();
  const paths = ensureTollgateDir(repoRoot);
  mkdirSync(join(paths.root, 'sessions'), { recursive: true, mode: 0o700 });
  await writeFileAtomic(sessionPath(repoRoot, key), `${JSON.stringify(session, null, 2)}\n`, {
    label: `${TOLLGATE_DIR}/sessions/${sessionFileName(key)}`,
  });
  return session;
}
