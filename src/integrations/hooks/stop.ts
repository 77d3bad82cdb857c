import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { errorMessage } from '../../core/errors.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { sessionPath } from '../../core/run/session-path.js';
import { TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';
import { detectAgent, fallbackHookAgent, type HookAgentName, hookAgent, type RegisteredHookAgent } from './index.js';
import { parsePayload, readStdin } from './read-stdin.js';
import { blocksSoFar, saveStamp, stampOf, validatedByStamp } from './stop-fast-path.js';

/**
 * Set in the environment of every agent CLI tollgate spawns (`src/agents/run-agent.ts`, REVIEWER_ENV_FLAG): a
 * reviewer's own stop must never be gated, or a review would wait on itself.
 */
const REVIEWER_FLAG = 'TOLLGATE_ACTIVE';
/** A counter untouched this long belongs to an abandoned loop. */
const COUNTER_EXPIRY_MS = 60 * 60_000;
/** Room after `hooks.stop.timeout` for a validator ignoring its abort (the pipeline's 5 s grace) and persisting. */
const RUN_GRACE_MS = 10_000;

export interface StopHookOptions {
  /** `--agent`; default: detected from the payload. */
  agent?: HookAgentName;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Where the hook was started; the payload's `cwd` wins. */
  cwd: string;
  /** How long to wait for the payload. */
  stdinTimeoutMs?: number;
  /**
   * The hook answers within this, whatever happens (fail open); with `hooks.stop.run`, within that run's timeout plus
   * a grace if that is longer.
   */
  deadlineMs?: number;
  registry?: readonly AnyToolDefinition[];
  /** tollgate's version: part of the fast path's stamp, so an upgrade re-decides. */
  version?: string;
  /** Warnings (fail-open reasons, loop limits); default stderr. */
  warn?: (line: string) => void;
}

export interface StopHookAnswer {
  agent: HookAgentName;
  decision: 'allow' | 'block';
  /** Exactly what goes to stdout: one JSON object and a newline. */
  stdout: string;
}

/**
 * `tollgate hook stop`: reads the agent's stop payload and answers in that agent's format whether it may stop. It
 * decides from persisted state (the last run's verdict for the current fingerprint and config), and fails open: any
 * problem of ours lets the agent stop, with a warning, rather than trapping it. With `hooks.stop.run` it first runs
 * the fast validators itself when it would otherwise block, then decides from the state that run left.
 */
export async function runStopHook(options: StopHookOptions): Promise<StopHookAnswer> {
  const warn = options.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const fallback = options.agent ? hookAgent(options.agent) : fallbackHookAgent;
  const answer = (
    agent: RegisteredHookAgent,
    reply: Record<string, unknown>,
    decision: 'allow' | 'block',
  ): StopHookAnswer => ({
    agent: agent.name,
    decision,
    stdout: `${JSON.stringify(reply)}\n`,
  });
  if (options.env[REVIEWER_FLAG] === '1') return answer(fallback, fallback.allow(), 'allow');

  const read = await readStdin(options.stdin, options.stdinTimeoutMs ?? 5000);
  const parsed = read.kind === 'tty' ? parsePayload('') : parsePayload(read.text);
  if (!parsed.ok) {
    const why = `hook stdin: ${parsed.problem}`;
    warn(`tollgate: ${why}; allowing the stop (fail open)`);
    return answer(fallback, fallback.allow(failOpenNote(why)), 'allow');
  }
  const agent = options.agent ? fallback : detectAgent(parsed.payload);
  const payload = agent.readPayload(parsed.payload);

  let repoRoot: string | null = null;
  // Until the config is read, a failure follows the agents' convention: let the agent stop, visibly.
  let onError: 'allow' | 'block' = 'allow';
  const started = Date.now();
  const baseDeadlineMs = options.deadlineMs ?? 20_000;
  let extendDeadline: (runTimeoutMs: number) => void = () => {};
  const decide = async (): Promise<StopHookAnswer> => {
    const stamp = await stampOf(payload.cwd ?? options.cwd, options.env, options.version ?? 'dev');
    if (!stamp) return answer(agent, agent.allow(), 'allow'); // Not a repository: nothing for tollgate to gate.
    const root = stamp.repoRoot;
    repoRoot = root;
    const counterKey = `stop-${agent.name}-${payload.sessionId ?? 'unknown'}`;
    // Fast path: nothing that could change the answer changed since the tree was found validated.
    if ((await validatedByStamp(stamp)) && (await blocksSoFar(sessionPath(root, counterKey))) === 0) {
      return answer(agent, agent.allow(), 'allow');
    }
    // Full path, imported only here so that the fast path stays small.
    const [
      { loadConfig },
      { readGateStatus },
      { readSession, updateSession },
      { planValidationTools },
      { decideStop },
    ] = await Promise.all([
      import('../../core/config/load.js'),
      import('../../core/run/gate-status.js'),
      import('../../core/run/session-store.js'),
      import('../mcp/tool-plan.js'),
      import('./stop-decision.js'),
    ]);
    const registry = options.registry ?? (await import('../../validators/index.js')).validators;
    const loaded = await loadConfig({ repoRoot: root, cwd: root, env: options.env, tools: registry });
    onError = loaded.config.hooks.stop.onError;
    const gateStatus = () =>
      readGateStatus({ repoRoot: root, config: loaded.config, configHash: loaded.hash, tools: registry });
    let status = await gateStatus();
    const counter = readSession(root, counterKey);
    const fresh = counter.updatedAt !== '' && Date.now() - Date.parse(counter.updatedAt) < COUNTER_EXPIRY_MS;
    const decisionInput = {
      agent,
      payload,
      status,
      consecutiveBlocks: fresh ? counter.consecutiveBlocks : 0,
      mcpToolName: planValidationTools(registry, loaded.config)[0]?.name ?? null,
    };
    let decision = decideStop(decisionInput);
    // `hooks.stop.run`: rather than only telling the agent to validate, run the fast validators here. Not when a
    // complete run of this very change already failed (it would fail again), nor inside a reviewer.
    if (
      decision.kind === 'block' &&
      loaded.config.hooks.stop.run &&
      status.state !== 'failed' &&
      options.env[REVIEWER_FLAG] !== '1'
    ) {
      extendDeadline(loaded.config.hooks.stop.timeout);
      const { runStopValidators } = await import('./stop-run.js');
      const ran = await runStopValidators({
        repoRoot: root,
        config: loaded.config,
        configHash: loaded.hash,
        registry,
        env: options.env,
        version: options.version ?? 'dev',
        warn: (line) => logWarning(root, line, warn),
      });
      if (ran) {
        status = await gateStatus();
        decision = decideStop({ ...decisionInput, status, ran });
      }
    }
    if (decision.kind === 'block') {
      await updateSession(root, counterKey, (session) => {
        session.consecutiveBlocks = (fresh ? session.consecutiveBlocks : 0) + 1;
      });
      return answer(agent, agent.block(decision.reason), 'block');
    }
    if (counter.consecutiveBlocks > 0) {
      await updateSession(root, counterKey, (session) => {
        session.consecutiveBlocks = 0;
      });
    }
    if (decision.why === 'user_stopped') return answer(agent, agent.allow(), 'allow');
    if (decision.why === 'loop_limit') {
      logWarning(root, decision.note!, warn);
      return answer(agent, agent.allow(decision.note), 'allow');
    }
    await saveStamp(stamp, status.verdict ? status.fingerprint : '', loaded.hash);
    return answer(agent, agent.allow(), 'allow');
  };

  const failOpen = async (why: string): Promise<StopHookAnswer> => {
    const decision = onError;
    if (repoRoot) {
      // Loaded only on this rare path: the hook's fast path must not pay for zod.
      const { recordFailOpen } = await import('./fail-open.js');
      await recordFailOpen(repoRoot, { at: new Date().toISOString(), agent: agent.name, why, decision });
    }
    if (decision === 'block') {
      logWarning(repoRoot, `tollgate: stop hook: ${why}; refusing the stop (hooks.stop.onError: block)`, warn);
      return answer(
        agent,
        agent.block(
          `tollgate: the stop hook could not decide (${why}), and this project's hooks.stop.onError is "block". Run \`tollgate doctor\` and \`tollgate run\` to see what is wrong.`,
        ),
        'block',
      );
    }
    logWarning(repoRoot, `tollgate: stop hook: ${why}; allowing the stop (fail open)`, warn);
    return answer(agent, agent.allow(failOpenNote(why)), 'allow');
  };
  let timer: NodeJS.Timeout | undefined;
  let resolveDeadline: (answer: StopHookAnswer) => void = () => {};
  const deadline = new Promise<StopHookAnswer>((resolve) => {
    resolveDeadline = resolve;
  });
  const arm = (totalMs: number) => {
    clearTimeout(timer);
    timer = setTimeout(
      () => void failOpen(`no decision within ${totalMs} ms`).then(resolveDeadline),
      Math.max(0, started + totalMs - Date.now()),
    );
    timer.unref();
  };
  arm(baseDeadlineMs);
  extendDeadline = (runTimeoutMs) => arm(Math.max(baseDeadlineMs, Date.now() - started + runTimeoutMs + RUN_GRACE_MS));
  try {
    return await Promise.race([
      decide().catch((error: unknown) => failOpen(`internal error: ${errorMessage(error).split('\n')[0]}`)),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the user sees when the gate let a stop through without a decision: it must never look like a pass. */
function failOpenNote(why: string): string {
  return `tollgate: the completion gate is OFF for this stop (${why}); the change was NOT validated. Run \`tollgate doctor\`.`;
}

/** To stderr, and to `.tollgate/hooks.log` when we know the repository (agents often hide a hook's stderr). */
function logWarning(repoRoot: string | null, line: string, warn: (line: string) => void): void {
  warn(line);
  if (!repoRoot) return;
  try {
    appendFileSync(join(repoRoot, TOLLGATE_DIR, 'hooks.log'), `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
  } catch {
    // No .tollgate/ yet, or read-only: stderr has it.
  }
}
