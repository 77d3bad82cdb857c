import { recordFailOpen } from './fail-open.js';
import { answerWith, logWarning, type StopHookAnswer, type StopHookContext } from './stop-context.js';
import { countBlock, readBlockCounter } from './stop-counter.js';
import { blockLimitFor, loopLimitNote } from './stop-decision.js';
import { stopCounterKey } from './stop-fast-answer.js';

/**
 * The stop hook's answer when it has no decision by its deadline (a loaded machine, a slow git, a long run): slowness
 * is not an error, so the stop is blocked, saying validation is still pending and how to finish it, whatever
 * `hooks.stop.onError` says. It counts as a block for the loop guard, so a machine too slow for any decision still
 * ends the loop after a few blocks, with a warning that nothing passed. Recorded for `tollgate doctor` like a
 * fail-open.
 */
export async function pendingAnswer(ctx: StopHookContext, why: string): Promise<StopHookAnswer> {
  const { agent, repoRoot } = ctx;
  if (repoRoot) {
    await recordFailOpen(repoRoot, { at: new Date().toISOString(), agent: agent.name, why, decision: 'block' });
    const counterKey = stopCounterKey(agent.name, ctx.payload.sessionId);
    try {
      const counter = readBlockCounter(repoRoot, counterKey);
      const blocks = Math.max(counter.blocks, ctx.payload.loopCount ?? 0);
      if (blocks >= blockLimitFor(agent)) {
        const note = loopLimitNote(blocks);
        logWarning(repoRoot, note, ctx.warn);
        return { ...answerWith(agent, agent.allow(note), 'allow'), pending: true };
      }
      await countBlock(repoRoot, counterKey, counter);
    } catch {
      // The counter could not be kept (a read-only tree): block all the same; the agent's own cap still applies.
    }
  }
  logWarning(repoRoot, `tollgate: stop hook: ${why}; blocking the stop (validation pending)`, ctx.warn);
  return { ...answerWith(agent, agent.block(pendingReason(why)), 'block'), pending: true };
}

/** For the agent: what happened, that nothing was let through, and how to finish. */
export function pendingReason(why: string): string {
  return (
    `tollgate: validation is still pending: the stop hook had ${why} (a loaded machine or a slow git), so the current ` +
    'changes are not known to pass. Call the `validation_status` tool (tollgate MCP server) to see where validation ' +
    'stands, or run `tollgate run`; fix what it reports, then finish.'
  );
}
