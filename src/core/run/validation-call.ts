import { isUnchanged } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import { formatDuration } from '../config/units.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import { isPassingStatus, result, type ToolResult, type ToolStatus } from '../result.js';
import { ensureTollgateDir } from '../state/index.js';
import { recordRunTelemetry, type SkipReason, type TrivialDeclaration } from '../telemetry/index.js';
import type { AgentFindingList } from './agent-findings.js';
import { repoConfigLocations } from './config-locations.js';
import type { SelectedCall } from './execute-selected.js';
import { readGateStatus } from './gate-status.js';
import { reportOfRun } from './run-gate.js';
import { type RunLifecycleOutcome, runLifecycle, type ValidatorRunOptions } from './run-lifecycle.js';
import type { ToolReport, Verdict } from './run-report.js';
import { requiredValidators } from './select-tools.js';
import { readSession, updateSession } from './session-store.js';
import { storeRunReport } from './stored-report.js';
import { maySkipAsTrivial } from './trivial-declarations.js';
import { type CallCoverage, findingsOfView, renderValidationResults, validationFooter } from './validation-results.js';

/** The call that runs every enabled validator on one snapshot (parallel-validation.ts): the one that can pass the gate. */
export const PARALLEL_VALIDATION = 'parallel_validation';

/** Below this much session budget a call does not start validators that would likely time out (30 s). */
export const MIN_REMAINING_BUDGET_MS = 30_000;
/** Consecutive timed-out calls after which the circuit breaker refuses further calls in the session (2). */
export const CIRCUIT_BREAKER_TIMEOUTS = 2;

export interface ValidationCallOptions extends ValidatorRunOptions {
  /** The MCP tool the agent called: `parallel_validation`, or a single validator's tool. */
  callName: string;
  /** The agent's trivial-change declarations by tool name. */
  declarations: ReadonlyMap<string, TrivialDeclaration>;
  /** The agent session (one MCP server process): the time budget and circuit breaker are per session. */
  sessionId: string;
  version: string;
}

export interface ValidationCallOutcome {
  status: ToolStatus;
  /** One line: what happened. */
  summary: string;
  /** The run's id, when the call got as far as starting one. */
  runId: string | null;
  fingerprint: string | null;
  tools: ToolReport[];
  /** `## Validation Results` Markdown for the agent. */
  text: string;
  /** The findings as the agent is told them (most severe first, bounded); absent when nothing ran. */
  findings?: AgentFindingList;
  /** A call of some validators only: whether the change stands validated all the same, or what it still needs. */
  coverage?: CallCoverage;
}

/** The session key of an MCP server's session in `.tollgate/sessions/`. */
function sessionKey(sessionId: string): string {
  return `mcp-${sessionId}`;
}

/**
 * One validation call from an agent (`parallel_validation` or a single validator): circuit breaker, session budget,
 * one shared change set, the all-trivial and no-changes shortcuts, then every tool through the pipeline at once with
 * `allSettled` semantics. Results are persisted like `tollgate run`'s, so the stop hook sees them.
 */
export async function runValidationCall(options: ValidationCallOptions): Promise<ValidationCallOutcome> {
  const started = Date.now();
  const { config, repoRoot, callName } = options;
  const key = sessionKey(options.sessionId);
  const session = readSession(repoRoot, key);
  const refused = refusalOf(session, config, callName);
  if (refused) return refuse(options, started, refused);
  const remainingMs = config.validation.timeout - session.budgetUsedMs;

  const skipTrivial = config.validation.skipTrivial;
  const allTrivial =
    options.calls.length > 0 &&
    options.calls.every((call) => maySkipAsTrivial(call.tool, skipTrivial, options.declarations));
  // A call narrowed to explicit paths or packages checks exactly those, whatever the change set holds (a clean tree,
  // or one a full run already passed): it is never answered "no changes" nor from an earlier result. Nor is a call
  // whose input is wrong: the agent must hear what to fix, not that there was nothing to do.
  const mustRun = mustRunWhateverChanged(options.calls);
  const skipped: SkipState = { message: undefined, reason: null };
  const statusOf = (tools: readonly ToolReport[], verdict: Verdict) => callStatus(tools, verdict, skipped.reason);
  const run = await runLifecycle({
    repoRoot,
    config,
    configHash: options.configHash,
    ...(options.policy ? { policy: options.policy } : {}),
    registry: options.registry,
    calls: options.calls,
    command: `tollgate mcp ${callName}`,
    lock: { wait: true, timeoutMs: remainingMs },
    deadline: started + remainingMs,
    complete: options.complete,
    required: requiredValidators(options.registry, config),
    shortcut: (changeSet) => shortcutFor(isUnchanged(changeSet) && !mustRun, allTrivial, skipped),
    ...(mustRun ? { force: true } : {}),
    skipBefore: (tool) => declaredTrivial(tool, skipTrivial, options.declarations),
    ...(options.mcpServerName ? { mcpServerName: options.mcpServerName } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onToolDone ? { onToolDone: options.onToolDone } : {}),
    telemetry: (finished) => ({
      source: 'mcp',
      declarations: options.declarations,
      call: {
        name: callName,
        // A cancelled call decided nothing, whatever its interrupted validators said.
        status: options.signal?.aborted ? 'incomplete' : statusOf(finished.tools, finished.verdict),
        durationMs: finished.durationMs,
        skipReason: skipped.reason,
      },
    }),
  });
  // The page `log --format html` draws of this call, as of a `tollgate run`.
  if (!run.notStored) {
    const facts = { repoRoot, config, tools: options.registry, partial: !options.complete, version: options.version };
    await storeRunReport(reportOfRun(run, facts));
  }
  let outcome = await callOutcome(options, run, statusOf(run.tools, run.verdict), skipped.message);
  // A call the client cancelled (or gave up on: its timeout sends the same cancellation) stopped its validators, which
  // then report `timeout`; only the server's own budget running out may count towards the circuit breaker.
  const cancelled = options.signal?.aborted === true;
  if (cancelled) outcome = cancelledOutcome(outcome, callName, config.output.maxOutputLines);
  await chargeSession(repoRoot, key, {
    started,
    cancelled,
    timedOut: outcome.tools.some((tool) => tool.status === 'timeout'),
  });
  return outcome;
}

/** What the agent is told of a finished call: the status, the rendered results and the bounded list of findings. */
async function callOutcome(
  options: ValidationCallOptions,
  run: RunLifecycleOutcome,
  status: ReturnType<typeof callStatus>,
  message: string | undefined,
): Promise<ValidationCallOutcome> {
  const { config, repoRoot, callName } = options;
  const coverage = await coverageOf(options, run, status);
  const view = {
    callName,
    status,
    ...(message ? { message: `${message}\n` } : {}),
    tools: run.tools,
    maxOutputLines: config.output.maxOutputLines,
    runId: run.runId,
    places: await repoConfigLocations(repoRoot, options.env ?? process.env),
    ...(coverage ? { coverage } : {}),
  };
  const findings = findingsOfView(view);
  return {
    status,
    // A pass of some validators must not read as the change's pass: its summary is the footer's account of it.
    summary: message ?? (coverage ? validationFooter({ ...view, findings }) : summaryOf(run.tools, status)),
    runId: run.runId,
    fingerprint: run.changeSet.fingerprint,
    tools: run.tools,
    text: renderValidationResults(view),
    findings,
    ...(coverage ? { coverage } : {}),
  };
}

/**
 * For a passing call that did not run every enabled validator: whether a complete run already passed this very change
 * (what `validation_status` and the stop hook go by), else which validators have not run on it. Undefined otherwise.
 */
async function coverageOf(
  options: ValidationCallOptions,
  run: RunLifecycleOutcome,
  status: ToolStatus,
): Promise<CallCoverage | undefined> {
  if (options.complete || !isPassingStatus(status)) return undefined;
  const gate = await readGateStatus({
    repoRoot: options.repoRoot,
    config: options.config,
    configHash: options.configHash,
    tools: options.registry,
    changeSet: run.changeSet,
  });
  if (gate.state === 'validated' && gate.verdict) return { kind: 'covered', runId: gate.verdict.runId };
  if (gate.state === 'validated') return undefined; // nothing changed, or nothing is enabled: nothing more to run
  const others = gate.enabledTools.filter((name) => !run.tools.some((tool) => tool.name === name));
  const notRun = others.filter((name) => gate.ranOnChange[name] === undefined);
  const notPassed = others.filter((name) => {
    const status = gate.ranOnChange[name];
    return status !== undefined && !isPassingStatus(status as ToolStatus);
  });
  return { kind: 'needed', call: PARALLEL_VALIDATION, notRun, notPassed };
}

/**
 * Whether any call's input narrows what its validator examines (`secret_scanning` paths, advisory packages), or is
 * invalid (the pipeline then answers `invalid_input` naming the field).
 */
function mustRunWhateverChanged(calls: readonly SelectedCall[]): boolean {
  return calls.some((call) => {
    const parsed = call.tool.inputSchema.safeParse(call.arguments ?? {});
    return !parsed.success || (call.tool.scopeOf?.(parsed.data) ?? null) !== null;
  });
}

/** Why a call ran nothing, or only some validators, and what it tells the agent about it. */
interface SkipState {
  message: string | undefined;
  reason: SkipReason | null;
}

/** No changes: answer at once, storing nothing. All declared trivial: run (each validator decides), and say so. */
function shortcutFor(
  isEmpty: boolean,
  allTrivial: boolean,
  skipped: SkipState,
): { tools: ToolReport[]; verdict: Verdict } | null {
  if (isEmpty) {
    skipped.message = 'No changes detected. Skipping validation.';
    skipped.reason = 'no_changes';
    return { tools: [], verdict: 'passed' };
  }
  if (allTrivial) {
    skipped.message = 'Skipped: all changes are trivial.';
    skipped.reason = 'trivial_change';
  }
  return null;
}

/** A validator the agent declared trivial for, where `validation.skipTrivial` lets it skip: `skipped_trivial`. */
function declaredTrivial(
  tool: AnyToolDefinition,
  skipTrivial: readonly string[],
  declarations: ReadonlyMap<string, TrivialDeclaration>,
): ToolResult | null {
  if (!maySkipAsTrivial(tool, skipTrivial, declarations)) return null;
  const reason = declarations.get(tool.name)?.reason ?? 'no reason given';
  return result(
    'skipped_trivial',
    `Skipped: declared trivial (${reason}) and \`validation.skipTrivial\` lists ${tool.name}.`,
  );
}

/** The call's time goes against the session's budget; a server timeout (never a cancellation) counts for the breaker. */
async function chargeSession(
  repoRoot: string,
  key: string,
  call: { started: number; cancelled: boolean; timedOut: boolean },
): Promise<void> {
  await updateSession(repoRoot, key, (next) => {
    next.budgetUsedMs += Date.now() - call.started;
    if (!call.cancelled) next.consecutiveTimeouts = call.timedOut ? next.consecutiveTimeouts + 1 : 0;
  });
}

/**
 * A cancelled call decided nothing: `incomplete` (it did not examine everything), saying so, whatever its
 * interrupted validators reported.
 */
function cancelledOutcome(
  outcome: ValidationCallOutcome,
  callName: string,
  maxOutputLines: number,
): ValidationCallOutcome {
  const summary = `Validation cancelled by the client before it finished; nothing was decided. Call \`${callName}\` again to validate the change.`;
  // Interrupted validators say `timeout`, but no time ran out: the advice not to call again would be wrong here.
  const tools = outcome.tools.map((tool) =>
    tool.status === 'timeout'
      ? { ...tool, status: 'incomplete' as const, summary: 'Interrupted: the client cancelled the call.' }
      : tool,
  );
  const view = { callName, status: 'incomplete' as const, message: `${summary}\n`, tools, maxOutputLines };
  const text = renderValidationResults({ ...view, runId: outcome.runId });
  return { ...outcome, status: 'incomplete', summary, tools, text, findings: findingsOfView(view) };
}

interface Refusal {
  status: ToolStatus;
  skipReason: SkipReason;
  summary: string;
}

/** The session's circuit breaker or its spent budget refuse the call before anything runs; null: go ahead. */
function refusalOf(
  session: { consecutiveTimeouts: number; budgetUsedMs: number },
  config: TollgateConfig,
  callName: string,
): Refusal | null {
  if (session.consecutiveTimeouts >= CIRCUIT_BREAKER_TIMEOUTS) {
    return {
      status: 'timeout',
      skipReason: 'circuit_breaker',
      summary: `Validation timed out ${session.consecutiveTimeouts} times in a row in this session. Do not call \`${callName}\` again in this session: split the change, or raise \`validation.timeout\` and start a new session.`,
    };
  }
  const remainingMs = config.validation.timeout - session.budgetUsedMs;
  if (remainingMs < MIN_REMAINING_BUDGET_MS) {
    return {
      status: 'budget_exhausted',
      skipReason: 'budget_exhausted',
      summary: `Only ${formatDuration(Math.max(0, remainingMs))} of this session's validation budget (\`validation.timeout\`, ${formatDuration(config.validation.timeout)}) is left, under the ${formatDuration(MIN_REMAINING_BUDGET_MS)} needed to start; no validator was run. Do not call \`${callName}\` again in this session.`,
    };
  }
  return null;
}

/** A refused call: recorded in telemetry, answered with what to do instead, nothing run. */
async function refuse(
  options: ValidationCallOptions,
  started: number,
  refusal: Refusal,
): Promise<ValidationCallOutcome> {
  const { status, skipReason, summary } = refusal;
  await recordRunTelemetry(ensureTollgateDir(options.repoRoot).root, {
    runId: '',
    source: 'mcp',
    tools: [],
    call: { name: options.callName, status, durationMs: Date.now() - started, skipReason },
  });
  const text = renderValidationResults({
    callName: options.callName,
    status,
    message: `${summary}\n`,
    tools: [],
    maxOutputLines: options.config.output.maxOutputLines,
  });
  return { status, summary, runId: null, fingerprint: null, tools: [], text };
}

function callStatus(tools: readonly ToolReport[], verdict: 'passed' | 'failed', skip: SkipReason | null): ToolStatus {
  if (skip === 'no_changes') return 'skipped_no_changes';
  if (skip === 'trivial_change') return 'skipped_trivial';
  // The call's input was wrong: nothing was validated, and the agent must fix the input rather than the code.
  if (tools.some((tool) => tool.status === 'invalid_input')) return 'invalid_input';
  if (tools.some((tool) => tool.status === 'timeout')) return 'timeout';
  return verdict;
}

function summaryOf(tools: readonly ToolReport[], status: ToolStatus): string {
  if (status === 'invalid_input') {
    return tools
      .filter((tool) => tool.status === 'invalid_input')
      .map((tool) => tool.summary)
      .join('; ');
  }
  const counts = tools
    .map((tool) => `${tool.name} ${tool.status}${tool.scope ? ` (${tool.scope} only)` : ''}`)
    .join(', ');
  if (status === 'passed' && tools.some((tool) => tool.scope)) return `Passed on part of the change only: ${counts}.`;
  return `${status === 'passed' ? 'Validation passed' : `Validation ${status}`}: ${counts}.`;
}
