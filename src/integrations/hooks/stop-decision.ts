import type { GateStatus } from '../../core/run/gate-status.js';
import type { HookAgent, StopPayload } from './hook-agent.js';
import type { StopRunSummary } from './stop-run.js';

/** Blocks in a row after which we let the agent stop, whatever its own cap (Codex and Gemini have none). */
const MAX_CONSECUTIVE_BLOCKS = 5;

/** Our limit for an agent: under its own cap, so that we, not the agent, end the loop with an explanation. */
function blockLimitFor(agent: HookAgent): number {
  return agent.blockCap === null ? MAX_CONSECUTIVE_BLOCKS : Math.min(MAX_CONSECUTIVE_BLOCKS, agent.blockCap - 1);
}

export type StopDecision =
  | { kind: 'allow'; why: 'validated' | 'loop_limit' | 'user_stopped'; note?: string }
  | { kind: 'block'; reason: string };

export interface StopDecisionInput {
  agent: HookAgent;
  payload: StopPayload;
  status: GateStatus;
  /** Blocks in a row so far in this session (our own counter). */
  consecutiveBlocks: number;
  /** What the agent should call: the MCP tool (`parallel_validation`, or the single validator's tool), if any. */
  mcpToolName: string | null;
  /** What the hook's own run of `hooks.stop.validators` did, when it ran them. */
  ran?: StopRunSummary | null;
}

/** Pure: allow when the current change passed; otherwise block, unless this session has been blocked enough. */
export function decideStop(input: StopDecisionInput): StopDecision {
  const { status } = input;
  if (status.state === 'validated') return { kind: 'allow', why: 'validated' };
  // A follow-up after the person pressed stop (or after the agent crashed) would restart what they just stopped.
  if (input.payload.userStopped) return { kind: 'allow', why: 'user_stopped' };
  const limit = blockLimitFor(input.agent);
  const blocks = Math.max(input.consecutiveBlocks, input.payload.loopCount ?? 0);
  if (blocks >= limit) {
    return {
      kind: 'allow',
      why: 'loop_limit',
      note: `tollgate: allowed the stop after ${blocks} blocks in a row; validation has NOT passed on the current changes (run \`tollgate run\` to see why).`,
    };
  }
  return { kind: 'block', reason: blockReason(status, input.mcpToolName, input.ran ?? null) };
}

/** Short and imperative: what is wrong and what to call. */
function blockReason(status: GateStatus, mcpToolName: string | null, ran: StopRunSummary | null = null): string {
  const call = mcpToolName
    ? `Call the \`${mcpToolName}\` tool (tollgate MCP server) or run \`tollgate run\``
    : 'Run `tollgate run`';
  if (ran && ran.failing.length > 0) {
    return `tollgate: the stop hook ran ${ran.ran.join(', ')} on the current changes: ${ran.failing.join(', ')} did not pass (${ran.findings} finding(s)). Fix them, then ${lowerFirst(call)} again before finishing.`;
  }
  if (ran && ran.missing.length > 0) {
    return `tollgate: the stop hook ran ${ran.ran.join(', ')} on the current changes and they passed, but ${ran.missing.join(', ')} still need a run. ${call}, fix what it reports, then finish.`;
  }
  const findings = `${status.unresolvedFindings} unresolved finding(s)`;
  switch (status.state) {
    case 'failed':
      return `tollgate: validation failed on the current changes (${findings}). Fix them, then ${lowerFirst(call)} again before finishing.`;
    case 'stale':
      return `tollgate: the files or commits changed since the last validation${status.unresolvedFindings > 0 ? ` (${findings} from it)` : ''}. ${call} on the current changes, fix what it reports, then finish.`;
    case 'never':
      return `tollgate: the current changes have not been validated. ${call}, fix what it reports, then finish.`;
    case 'validated':
      return '';
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
