import { checkWorkTreeIsHere } from '../../core/change-set/work-tree-here.js';
import { errorMessage, isTollgateError } from '../../core/errors.js';
import { sessionPath } from '../../core/run/session-path.js';
import { renewStampEvidence } from '../../core/run/stamp-evidence-record.js';
import { ensureTollgateDir } from '../../core/state/tollgate-dir.js';
import { detectAgent, fallbackHookAgent, hookAgent, type RegisteredHookAgent } from './index.js';
import { parsePayload, readStdin } from './read-stdin.js';
import {
  answerWith,
  logWarning,
  REVIEWER_FLAG,
  type StopHookAnswer,
  type StopHookContext,
  type StopHookOptions,
} from './stop-context.js';
import { agentHookTimeout, stopDeadlineAt } from './stop-deadline.js';
import { stopCounterKey } from './stop-fast-answer.js';
import { blocksSoFar, type Stamp, stopStampOf, validatedByStamp } from './stop-fast-path.js';
import { environmentWarnings, payloadCwdWarning, withWarnings } from './stop-warnings.js';

export type { StopHookAnswer, StopHookOptions } from './stop-context.js';

/**
 * `tollgate hook stop`: reads the agent's stop payload and answers in that agent's format whether it may stop. It
 * decides from persisted state (the last run's verdict for the current fingerprint and config); with
 * `hooks.stop.run` it first runs the fast validators itself when it would otherwise block. Slowness is not an error:
 * without a decision by its deadline (just inside the agent's own hook timeout) it blocks, saying validation is still
 * pending. Its own failures (a bug, a config it cannot read, state from a newer tollgate) fail open, visibly, unless
 * `hooks.stop.onError` is `block`.
 */
export async function runStopHook(options: StopHookOptions): Promise<StopHookAnswer> {
  const startedAt = options.startedAt ?? Date.now();
  const warn = options.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const fallback = options.agent ? hookAgent(options.agent) : fallbackHookAgent;
  if (options.env[REVIEWER_FLAG] === '1') {
    // A reviewer tollgate started: never gated. Said every time, since anyone can set the variable.
    const warnings = environmentWarnings(options.env);
    for (const line of warnings) warn(`tollgate: stop hook: warning: ${line}`);
    return withWarnings(fallback, answerWith(fallback, fallback.allow(), 'allow'), warnings);
  }

  const read = options.read ?? (await readStdin(options.stdin, options.stdinTimeoutMs ?? 5000));
  const parsed = read.kind === 'tty' ? parsePayload('') : parsePayload(read.text);
  const deadlineAt = (agent: RegisteredHookAgent) => {
    if (options.deadlineMs !== undefined) return { startedAt, at: startedAt + options.deadlineMs };
    const timeout = agentHookTimeout(options.env, agent.hookTimeoutMs);
    if (timeout.problem) warn(`tollgate: stop hook: warning: ${timeout.problem}`);
    return { startedAt, at: stopDeadlineAt(startedAt, timeout.ms) };
  };
  if (!parsed.ok) {
    const why = `hook stdin: ${parsed.problem}`;
    if (read.kind === 'timeout') {
      // The agent had not finished writing its payload in time: a slow machine, not a broken agent.
      const { pendingAnswer } = await import('./stop-pending.js');
      return pendingAnswer(stopContext(options, fallback, null, warn, deadlineAt(fallback)), why);
    }
    warn(`tollgate: ${why}; allowing the stop (fail open)`);
    return answerWith(fallback, fallback.allow(failOpenNote(why)), 'allow');
  }
  const agent = options.agent ? fallback : detectAgent(parsed.payload);
  const ctx = stopContext(options, agent, agent.readPayload(parsed.payload), warn, deadlineAt(agent));
  return withDeadline(ctx);
}

function stopContext(
  options: StopHookOptions,
  agent: RegisteredHookAgent,
  payload: StopHookContext['payload'] | null,
  warn: (line: string) => void,
  deadline: { startedAt: number; at: number },
): StopHookContext {
  return {
    options,
    agent,
    payload: payload ?? { sessionId: null, cwd: null, loopActive: false, loopCount: null },
    warn,
    repoRoot: null,
    onError: 'allow',
    startedAt: deadline.startedAt,
    deadlineAt: deadline.at,
  };
}

/** The decision; a block saying validation is pending when there is none by the deadline; a fail-open when it errs. */
async function withDeadline(ctx: StopHookContext): Promise<StopHookAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<StopHookAnswer>((resolve) => {
    timer = setTimeout(
      () => {
        const why = `no decision within ${Math.round((ctx.deadlineAt - ctx.startedAt) / 1000)} s`;
        void import('./stop-pending.js').then(({ pendingAnswer }) => pendingAnswer(ctx, why)).then(resolve);
      },
      Math.max(0, ctx.deadlineAt - Date.now()),
    );
    timer.unref();
  });
  try {
    return await Promise.race([
      decide(ctx).catch((error: unknown) =>
        isTollgateError(error) && error.code === 'relocated_work_tree'
          ? refuseRelocatedWorkTree(ctx, error.message)
          : failOpen(ctx, `internal error: ${errorMessage(error).split('\n')[0]}`),
      ),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The decision, with a warning for whatever in the environment or payload changed what it checks. */
async function decide(ctx: StopHookContext): Promise<StopHookAnswer> {
  const { agent, options } = ctx;
  const stamp = await stopStampOf(ctx.payload.cwd ?? options.cwd, options.env, options.version ?? 'dev');
  if (stamp) checkWorkTreeIsHere(ctx.payload.cwd ?? options.cwd, stamp.repoRoot, options.env);
  const warnings = environmentWarnings(options.env);
  const outside = await payloadCwdWarning({
    payloadCwd: ctx.payload.cwd,
    hookCwd: options.cwd,
    checkedRoot: stamp?.repoRoot ?? null,
    env: options.env,
  });
  if (outside) warnings.push(outside.warning);
  const answer = await decideFor(ctx, stamp);
  const logRoot = stamp?.repoRoot ?? outside?.hookRoot ?? null;
  if (warnings.length > 0 && logRoot) ensureLogDir(logRoot);
  for (const line of warnings) logWarning(logRoot, `tollgate: stop hook: warning: ${line}`, ctx.warn);
  return withWarnings(agent, answer, warnings);
}

async function decideFor(ctx: StopHookContext, stamp: Stamp | null): Promise<StopHookAnswer> {
  const { agent } = ctx;
  if (!stamp) return answerWith(agent, agent.allow(), 'allow'); // Not a repository: nothing for tollgate to gate.
  ctx.repoRoot = stamp.repoRoot;
  const counterKey = stopCounterKey(agent.name, ctx.payload.sessionId);
  // Fast path: nothing that could change the answer changed since the tree was found validated.
  if ((await validatedByStamp(stamp)) && (await blocksSoFar(sessionPath(stamp.repoRoot, counterKey))) === 0) {
    await renewStampEvidence(stamp); // git's own answer matched: the next stop may again answer without git
    return answerWith(agent, agent.allow(), 'allow');
  }
  // Full path, imported only here so that the fast path stays small.
  const { decideFromState } = await import('./stop-full-path.js');
  return decideFromState(ctx, stamp, counterKey);
}

/** `.tollgate/`, so that hooks.log can hold the warning (agents often hide a hook's stderr). */
function ensureLogDir(repoRoot: string): void {
  try {
    ensureTollgateDir(repoRoot);
  } catch {
    // A `.tollgate` that is no directory, a read-only tree: stderr still has the warning.
  }
}

/**
 * The repository's config showed git another folder's files (core.worktree): not tollgate's failure but the change's
 * doing, so the gate stays closed. The agent is told only that a person must act; the one-line error names the command.
 */
function refuseRelocatedWorkTree(ctx: StopHookContext, why: string): StopHookAnswer {
  logWarning(ctx.repoRoot, `tollgate: stop hook: ${why}; refusing the stop`, ctx.warn);
  return answerWith(
    ctx.agent,
    ctx.agent.block(
      "tollgate: the change was not validated: this repository's git config points git at another folder's files (core.worktree), so tollgate cannot see the change. A person must remove that setting; then run `tollgate run` again.",
    ),
    'block',
  );
}

/** Our own failure: let the agent stop, visibly (or refuse, with `hooks.stop.onError: block`). */
async function failOpen(ctx: StopHookContext, why: string): Promise<StopHookAnswer> {
  const { agent, repoRoot, onError: decision } = ctx;
  if (repoRoot) {
    // Loaded only on this rare path: the hook's fast path must not pay for zod.
    const { recordFailOpen } = await import('./fail-open.js');
    await recordFailOpen(repoRoot, { at: new Date().toISOString(), agent: agent.name, why, decision });
  }
  if (decision === 'block') {
    logWarning(repoRoot, `tollgate: stop hook: ${why}; refusing the stop (hooks.stop.onError: block)`, ctx.warn);
    return answerWith(
      agent,
      agent.block(
        `tollgate: the stop hook could not decide (${why}), and this project's hooks.stop.onError is "block". Run \`tollgate doctor\` and \`tollgate run\` to see what is wrong.`,
      ),
      'block',
    );
  }
  logWarning(repoRoot, `tollgate: stop hook: ${why}; allowing the stop (fail open)`, ctx.warn);
  return answerWith(agent, agent.allow(failOpenNote(why)), 'allow');
}

/** What the user sees when the gate let a stop through without a decision: it must never look like a pass. */
export function failOpenNote(why: string): string {
  return `tollgate: the completion gate is OFF for this stop (${why}); the change was NOT validated. Run \`tollgate doctor\`.`;
}
