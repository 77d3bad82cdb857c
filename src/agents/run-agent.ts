import { randomUUID } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withPrivateTempDir } from '../core/private-temp.js';
import { type ProcessResult, type RunProcessOptions, runProcess } from '../core/process.js';
import { classifyFailureText, failureLine } from './failure-text.js';
import type { AgentAdapter, AgentFailureKind, AgentSettings, RawAgentOutput } from './types.js';

/** Set in every reviewer's environment: tollgate's own hooks see it and allow at once (no recursive review). */
export const REVIEWER_ENV_FLAG = 'TOLLGATE_ACTIVE';
/** Removed from the reviewer's environment: Claude Code sets it for its children, and a nested `claude` refuses to start. */
const REMOVED_ENV = ['CLAUDECODE'] as const;

export type RunProcessFn = (
  command: string,
  args: readonly string[],
  options: RunProcessOptions,
) => Promise<ProcessResult>;

export interface RunAgentOptions {
  adapter: AgentAdapter;
  prompt: string;
  /** JSON Schema of the answer (given to CLIs that accept one). */
  answerSchema: object;
  repoRoot: string;
  settings: AgentSettings;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Per stream. Default 8 MiB. */
  maxOutputBytes?: number;
  /** The environment the reviewer inherits (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** `ctx.runProcess` in a validator; `runProcess` by default. */
  runProcess?: RunProcessFn;
  /**
   * `review` (default): read-only, `reviewArgs`, cwd = `repoRoot`. `analysis` (validate-alert): `analysisArgs`, cwd =
   * `repoRoot`, which is then the agent's own workspace, never the user's checkout.
   */
  purpose?: 'review' | 'analysis';
  /** For `analysis`: the session id (a UUID) to start, or to continue when `resume` is set. */
  sessionId?: string;
  resume?: boolean;
}

export type AgentRunOutcome =
  /** The CLI finished and printed an answer (still to be parsed as the review JSON). */
  | { kind: 'answer'; text: string; structured?: unknown; raw: AgentRunRaw }
  | { kind: AgentFailureKind; message: string; raw: AgentRunRaw }
  | { kind: 'not_installed'; message: string; raw: AgentRunRaw }
  | { kind: 'timeout'; message: string; raw: AgentRunRaw }
  | { kind: 'aborted'; message: string; raw: AgentRunRaw }
  /** A non-zero exit or output that could not be read, with no known failure phrase in it. */
  | { kind: 'failed'; message: string; raw: AgentRunRaw };

export interface AgentRunRaw extends RawAgentOutput {
  /** The exact argv, for the run log and `tollgate agents`. */
  argv: string[];
  durationMs: number;
  truncated: boolean;
}

/** The environment of a reviewer: the parent's, minus CLAUDECODE, plus TOLLGATE_ACTIVE=1 and the adapter's own. */
function reviewerEnv(
  adapter: AgentAdapter,
  settings: AgentSettings,
  base: NodeJS.ProcessEnv,
  purpose: 'review' | 'analysis' = 'review',
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of REMOVED_ENV) delete env[name];
  const own = purpose === 'analysis' ? adapter.analysisEnv(settings) : adapter.reviewEnv(settings);
  return { ...env, ...own, [REVIEWER_ENV_FLAG]: '1' };
}

/**
 * Runs one review with any adapter, the same way: the prompt goes into a private (0600) file in a private (0700) temp
 * dir and is piped on stdin (or passed as the argument, for CLIs that only take one), the CLI runs with the repo root
 * as cwd, under a timeout that kills its whole process group, with capped output; the temp dir is removed whatever
 * happens, timeouts and aborts included.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunOutcome> {
  const { adapter } = options;
  return withPrivateTempDir('tollgate-agent-', async (dir) => {
    const promptPath = join(dir, 'prompt.txt');
    const schemaPath = join(dir, 'answer.schema.json');
    const answerPath = join(dir, 'answer.txt');
    const schemaJson = JSON.stringify(options.answerSchema);
    await writePrivate(promptPath, options.prompt);
    await writePrivate(schemaPath, schemaJson);
    const purpose = options.purpose ?? 'review';
    const argv =
      purpose === 'analysis'
        ? adapter.analysisArgs({
            ...options.settings,
            workspace: options.repoRoot,
            prompt: options.prompt,
            answerPath,
            sessionId: options.sessionId ?? randomUUID(),
            resume: options.resume ?? false,
          })
        : adapter.reviewArgs({
            ...options.settings,
            repoRoot: options.repoRoot,
            schemaPath,
            schemaJson,
            answerPath,
            prompt: options.prompt,
          });
    const spawn = options.runProcess ?? runProcess;
    const result = await spawn(adapter.bin, argv, {
      cwd: options.repoRoot,
      env: reviewerEnv(adapter, options.settings, options.env ?? process.env, purpose),
      ...(adapter.promptVia === 'stdin' ? { input: await readFile(promptPath) } : {}),
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {}),
    });
    const answerFile = await readFile(answerPath, 'utf8').catch(() => null);
    const raw: AgentRunRaw = {
      argv: [adapter.bin, ...argv],
      stdout: result.stdout,
      stderr: result.stderr,
      exitCode: result.exitCode,
      answerFile,
      durationMs: result.durationMs,
      truncated: result.truncated,
    };
    return classifyRun(adapter, result, raw, options.timeoutMs);
  });
}

async function writePrivate(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/** Pure: what one finished process means. Structured error fields first, then the CLI's phrases, then the exit code. */
function classifyRun(
  adapter: AgentAdapter,
  result: Pick<ProcessResult, 'spawnError' | 'timedOut' | 'aborted' | 'exitCode' | 'signal'>,
  raw: AgentRunRaw,
  timeoutMs: number,
): AgentRunOutcome {
  if (result.spawnError) {
    const code = result.spawnError.code;
    const message =
      code === 'ENOENT'
        ? `${adapter.bin} is not on PATH; install ${adapter.title}: ${adapter.installCommand}`
        : `could not start ${adapter.bin} (${code ?? result.spawnError.message})`;
    return { kind: code === 'ENOENT' ? 'not_installed' : 'failed', message, raw };
  }
  if (result.timedOut) {
    return {
      kind: 'timeout',
      message: `${adapter.name} did not answer within ${Math.round(timeoutMs / 1000)} s and was stopped`,
      raw,
    };
  }
  if (result.aborted) return { kind: 'aborted', message: `${adapter.name} was stopped (the run was interrupted)`, raw };

  const output = adapter.readOutput(raw);
  const allText = `${raw.stdout}\n${raw.stderr}`;
  if (output.kind === 'failure' && output.failure !== 'error') {
    return { kind: output.failure, message: output.message, raw };
  }
  if (output.kind === 'answer' && result.exitCode === 0) {
    return output.structured === undefined
      ? { kind: 'answer', text: output.text, raw }
      : { kind: 'answer', text: output.text, structured: output.structured, raw };
  }
  // A failure, unreadable output or a non-zero exit: the phrases decide what it was.
  const detail = output.kind === 'failure' ? output.message : '';
  const failure = classifyFailureText(adapter, `${detail}\n${allText}`);
  const firstLine = failureLine(detail || raw.stderr || raw.stdout);
  if (failure) return { kind: failure, message: firstLine, raw };
  if (output.kind === 'answer') {
    // Exit code non-zero but an answer was printed: keep the answer, a parse decides.
    return { kind: 'answer', text: output.text, raw };
  }
  const exit = result.exitCode === null ? `signal ${result.signal ?? 'unknown'}` : `exit code ${result.exitCode}`;
  const why = output.kind === 'unreadable' ? output.message : output.message;
  return { kind: 'failed', message: `${adapter.name} failed (${exit}): ${firstLine || why}`, raw };
}
