import { loadConfig } from '../../core/config/load.js';
import { type GateStatus, readGateStatus } from '../../core/run/gate-status.js';
import { isStateFileRefused } from '../../core/state/results-store.js';
import { planValidationTools } from '../mcp/tool-plan.js';
import { answerWith, logWarning, REVIEWER_FLAG, type StopHookAnswer, type StopHookContext } from './stop-context.js';
import { type BlockCounter, countBlock, readBlockCounter, resetBlocks } from './stop-counter.js';
import { decideStop, type StopDecision, type StopDecisionInput } from './stop-decision.js';
import { type Stamp, saveStamp } from './stop-fast-path.js';

/**
 * Room after the stop hook's own run for a validator ignoring its abort (the pipeline's 5 s grace), persisting the
 * run and deciding from it.
 */
const RUN_GRACE_MS = 10_000;
/** Less time than this left for a run: the hook does not start one (it would only time out). */
const MIN_RUN_MS = 1000;

/**
 * The stop decided from persisted state: the gate status of the current tree and config, this session's block
 * counter and, with `hooks.stop.run`, a run of the fast validators. Loaded only when the fast path cannot answer.
 */
export async function decideFromState(ctx: StopHookContext, stamp: Stamp, counterKey: string): Promise<StopHookAnswer> {
  const { agent, options } = ctx;
  const root = stamp.repoRoot;
  const { validators, validatorsFor } = await import('../../validators/index.js');
  const builtIns = options.registry ?? validators;
  const loaded = await loadConfig({ repoRoot: root, cwd: root, env: options.env, tools: builtIns });
  const registry = validatorsFor(loaded.config, builtIns);
  ctx.onError = loaded.config.hooks.stop.onError;
  const gateStatus = () =>
    readGateStatus({ repoRoot: root, config: loaded.config, configHash: loaded.hash, tools: registry });
  const counter = readBlockCounter(root, counterKey);
  const firstStatus = await gateStatus();
  let input: StopDecisionInput = {
    agent,
    payload: ctx.payload,
    status: firstStatus,
    // Rare: only a tree with no trusted run at all pays for the second read.
    stateRefused: firstStatus.state === 'never' && (await isStateFileRefused(root)),
    consecutiveBlocks: counter.blocks,
    mcpToolName: planValidationTools(registry, loaded.config)[0]?.name ?? null,
  };
  let decision = decideStop(input);
  let status = input.status;
  // `hooks.stop.run`: rather than only telling the agent to validate, run the fast validators here. Not when a
  // complete run of this very change already failed (it would fail again), nor inside a reviewer.
  // The run ends early enough for the hook to decide from it before its deadline.
  const runTimeoutMs = Math.min(loaded.config.hooks.stop.timeout, ctx.deadlineAt - Date.now() - RUN_GRACE_MS);
  if (
    decision.kind === 'block' &&
    loaded.config.hooks.stop.run &&
    status.state !== 'failed' &&
    options.env[REVIEWER_FLAG] !== '1' &&
    runTimeoutMs >= MIN_RUN_MS
  ) {
    const { runStopValidators } = await import('./stop-run.js');
    const ran = await runStopValidators({
      timeoutMs: runTimeoutMs,
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
  return settle(ctx, { stamp, counterKey, counter, decision, status, configHash: loaded.hash });
}

interface Settlement {
  stamp: Stamp;
  counterKey: string;
  counter: BlockCounter;
  decision: StopDecision;
  status: GateStatus;
  configHash: string;
}

/** Keeps the block counter and the fast path's stamp in step with the decision, and answers it. */
async function settle(ctx: StopHookContext, settlement: Settlement): Promise<StopHookAnswer> {
  const { agent } = ctx;
  const { stamp, counterKey, counter, decision, status } = settlement;
  const root = stamp.repoRoot;
  if (decision.kind === 'block') {
    await countBlock(root, counterKey, counter);
    return answerWith(agent, agent.block(decision.reason), 'block');
  }
  await resetBlocks(root, counterKey, counter);
  if (decision.why === 'user_stopped') return answerWith(agent, agent.allow(), 'allow');
  if (decision.why === 'loop_limit') {
    logWarning(root, decision.note!, ctx.warn);
    return answerWith(agent, agent.allow(decision.note), 'allow');
  }
  await saveStamp(stamp, status.verdict ? status.fingerprint : '', settlement.configHash);
  return answerWith(agent, agent.allow(), 'allow');
}
