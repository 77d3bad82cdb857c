import { readSession, type SessionState, updateSession } from '../../core/run/session-store.js';

/** A counter untouched this long belongs to an abandoned loop. */
const COUNTER_EXPIRY_MS = 60 * 60_000;

/** This session's blocks in a row, as the stop hook's loop guard counts them. */
export interface BlockCounter {
  counter: SessionState;
  /** The counter belongs to a live loop (not an abandoned one). */
  fresh: boolean;
  /** Blocks in a row so far: 0 for an abandoned loop. */
  blocks: number;
}

export function readBlockCounter(repoRoot: string, counterKey: string): BlockCounter {
  const counter = readSession(repoRoot, counterKey);
  const fresh = counter.updatedAt !== '' && Date.now() - Date.parse(counter.updatedAt) < COUNTER_EXPIRY_MS;
  return { counter, fresh, blocks: fresh ? counter.consecutiveBlocks : 0 };
}

/** One more block in a row (the first, when the loop was abandoned). */
export async function countBlock(repoRoot: string, counterKey: string, read: BlockCounter): Promise<void> {
  await updateSession(repoRoot, counterKey, (session) => {
    session.consecutiveBlocks = (read.fresh ? session.consecutiveBlocks : 0) + 1;
  });
}

/** The loop is over: the stop was allowed. */
export async function resetBlocks(repoRoot: string, counterKey: string, read: BlockCounter): Promise<void> {
  if (read.counter.consecutiveBlocks === 0) return;
  await updateSession(repoRoot, counterKey, (session) => {
    session.consecutiveBlocks = 0;
  });
}
