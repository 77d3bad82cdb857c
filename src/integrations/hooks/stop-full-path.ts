import { loadConfig } from '../../core/config/load.js';
import { type GateStatus, readGateStatus } from '../../core/run/gate-status.js';
import { readSession, type SessionState, updateSession } from '../../core/run/session-store.js';
import { isStateFileRefused } from '../../core/state/results-store.js';
import { planValidationTools } from '../mcp/tool-plan.js';
import { answerWith, logWarning, REVIEWER_FLAG, type StopHookAnswer, type StopHookContext } from './stop-context.js';
import { decideStop, type StopDecision, type StopDecisionInput } from './stop-decision.js';
import { type Stamp, saveStamp } from './stop-fast-path.js';

/** A counter untouched this long belongs to an abandoned loop. */
const COUNTER_EXPIRY_MS = 60 * 60_000;

/**
 * The stop decided from persisted state: the gate status of the current tree and config, this session's block
 * counter and, with `hooks.stop.run`, a run of the fast validators. Loaded only when the fast path cannot answer.
 */
export async function decideFromState(ctx: StopHookContext, stamp: Stamp, counterKey: string): Promise<StopHookAnswer> {
  const { agent, options } = ctx;
  const root = stamp.repoRoot;
  const registry = options.registry ?? (await import('../../validators/index.js')).validators;
  const loaded = await loadConfig({ repoRoot: root, cwd: root, env: options.env, tools: registry });
  ctx.onError = loaded.config.hooks.stop.onError;
  const gateStatus = () =>
    readGateStatus({ repoRoot: root, config: loaded.config, configHash: loaded.hash, tools: registry });
  const counter = readSession(root, counterKey);
  const fresh = counter.updatedAt !== '' && Date.now() - Date.parse(counter.updatedAt) < COUNTER_EXPIRY_MS;
  const firstStatus = await gateStatus();
  let input: StopDecisionInput = {
    agent,
    payload: ctx.payload,
    status: firstStatus,
    // Rare: only a tree with no trusted run at all pays for the second read.
    stateRefused: firstStatus.state === 'never' && (await isStateFileRefused(root)),
    consecutiveBlocks: fresh ? counter.consecutiveBlocks : 0,
    mcpToolName: planValidationTools(registry, loaded.config)[0]?.name ?? null,
  };
  let decision = decideStop(input);
  let status = input.status;
  // `hooks.stop.run`: rather than only telling the agent to validate, run the fast validators here. Not when a
  // complete run of this very change already failed (it would fail again), nor inside a reviewer.
  if (
    decision.kind === 'block' &&
    loaded.config.hooks.stop.run &&
    status.state !== 'failed' &&
    options.env[REVIEWER_FLAG] !== '1'
  ) {
    ctx.extendDeadline(loaded.config.hooks.stop.timeout);
    const { runStopValidators } = await import('./stop-run.js');
    const ran = await runStopValidators({
      repoRoot: root,
      config: loaded.config,
      configHash: loaded.hash,
      ...(loaded.policy ? { policy: loaded.policy } : {}),
      registry,
      env: options.env,
      version: options.version ?? 'dev',
      warn: (line) => logWarning(root, line, ctx.warn),
    });
    if (ran) {
      status = await gateStatus();
      input = { ...input, status, ran };
      decision = decideStop(input);
    }
  }
  if (decision.kind === 'block' && status.findingRuns.length > 0) {
    // Name what to fix, so an agent in a fresh context need not rerun everything to learn it.
    const { stopFindings } = await import('./stop-findings.js');
    decision = decideStop({ ...input, findings: await stopFindings(root, status, options.env) });
  }
  return settle(ctx, { stamp, counterKey, counter, fresh, decision, status, configHash: loaded.hash });
}

interface Settlement {
  stamp: Stamp;
  counterKey: string;
  counter: SessionState;
  /** The counter belongs to a live loop (not an abandoned one). */
  fresh: boolean;
  decision: StopDecision;
  status: GateStatus;
  configHash: string;
}

/** Keeps the block counter and the fast path's stamp in step with the decision, and answers it. */
async function settle(ctx: StopHookContext, settlement: Settlement): Promise<StopHookAnswer> {
  const { agent } = ctx;
  const { stamp, counterKey, counter, fresh, decision, status } = settlement;
  const root = stamp.repoRoot;
  if (decision.kind === 'block') {
    await updateSession(root, counterKey, (session) => {
      session.consecutiveBlocks = (fresh ? session.consecutiveBlocks : 0) + 1;
    });
    return answerWith(agent, agent.block(decision.reason), 'block');
  }
  if (counter.consecutiveBlocks > 0) {
    await updateSession(root, counterKey, (session) => {
      session.consecutiveBlocks = 0;
    });
  }
  if (decision.why === 'user_stopped') return answerWith(agent, agent.allow(), 'allow');
  if (decision.why === 'loop_limit') {
    logWarning(root, decision.note!, ctx.warn);
    return answerWith(agent, agent.allow(decision.note), 'allow');
  }
  await saveStamp(stamp, status.verdict ? status.fingerprint : '', settlement.configHash);
  return answerWith(agent, agent.allow(), 'allow');
}
