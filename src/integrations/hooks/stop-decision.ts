import type { GateStatus } from '../../core/run/gate-status.js';
import type { HookAgent, StopPayload } from './hook-agent.js';
import type { StopFindings } from './stop-findings.js';
import { blockReason } from './stop-reason.js';
import type { StopRunSummary } from './stop-run.js';

/** Blocks in a row after which we let the agent stop, whatever its own cap (Codex and Gemini have none). */
const MAX_CONSECUTIVE_BLOCKS = 5;

/** Our limit for an agent: under its own cap, so that we, not the agent, end the loop with an explanation. */
export function blockLimitFor(agent: HookAgent): number {
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
  /** The top findings of the current change, named in the reason. */
  findings?: StopFindings | null;
  /** `.tollgate/state.json` is there but signed with another key than this hook's: its runs do not count. */
  stateRefused?: boolean;
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
      note: loopLimitNote(blocks),
    };
  }
  return {
    kind: 'block',
    reason: blockReason({
      status,
      mcpToolName: input.mcpToolName,
      agent: input.agent,
      ran: input.ran ?? null,
      findings: input.findings ?? null,
      stateRefused: input.stateRefused ?? false,
    }),
  };
}

/** What the user sees when the loop guard let the agent stop: never a pass. */
export function loopLimitNote(blocks: number): string {
  return `tollgate: allowed the stop after ${blocks} blocks in a row; validation has NOT passed on the current changes (run \`tollgate run\` to see why).`;
}
