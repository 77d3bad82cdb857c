import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { TOLLGATE_DIR } from '../../core/state/tollgate-dir.js';
import type { StopPayload } from './hook-agent.js';
import type { HookAgentName, RegisteredHookAgent } from './index.js';
import type { StdinRead } from './read-stdin.js';

/**
 * Set in the environment of every agent CLI tollgate spawns (`src/agents/run-agent.ts`, REVIEWER_ENV_FLAG): a
 * reviewer's own stop must never be gated, or a review would wait on itself.
 */
export const REVIEWER_FLAG = 'TOLLGATE_ACTIVE';

export interface StopHookOptions {
  /** `--agent`; default: detected from the payload. */
  agent?: HookAgentName;
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Where the hook was started; the payload's `cwd` wins. */
  cwd: string;
  /** The payload already read from `stdin` (by the fast path in bin/tollgate.cjs, which handed the stop over). */
  read?: StdinRead;
  /** How long to wait for the payload. */
  stdinTimeoutMs?: number;
  /**
   * The hook answers within this, whatever happens: without a decision by then it blocks (validation pending).
   * Default: the agent's hook timeout less a margin, counted from `startedAt` (stop-deadline.ts).
   */
  deadlineMs?: number;
  /** When the hook's process started (the agent's clock starts at the spawn); default: when `runStopHook` was called. */
  startedAt?: number;
  registry?: readonly AnyToolDefinition[];
  /** tollgate's version: part of the fast path's stamp, so an upgrade re-decides. */
  version?: string;
  /** Warnings (fail-open reasons, loop limits); default stderr. */
  warn?: (line: string) => void;
}

export interface StopHookAnswer {
  agent: HookAgentName;
  decision: 'allow' | 'block';
  /** The deadline answered, not a decision: the work still under way is abandoned (the process exits). */
  pending?: boolean;
  /** Exactly what goes to stdout: one JSON object and a newline. */
  stdout: string;
}

/** One stop being decided: who asked, and what the hook has learnt so far (a failure reads it to answer). */
export interface StopHookContext {
  options: StopHookOptions;
  agent: RegisteredHookAgent;
  payload: StopPayload;
  warn: (line: string) => void;
  /** Known once the payload's directory is found to be a repository. */
  repoRoot: string | null;
  /** Until the config is read, a failure follows the agents' convention: let the agent stop, visibly. */
  onError: 'allow' | 'block';
  /** When the hook started (its deadline counts from there). */
  startedAt: number;
  /** When the hook answers, decided or not (ms since the epoch): a run of validators must end before it. */
  deadlineAt: number;
}

export function answerWith(
  agent: RegisteredHookAgent,
  reply: Record<string, unknown>,
  decision: 'allow' | 'block',
): StopHookAnswer {
  return { agent: agent.name, decision, stdout: `${JSON.stringify(reply)}\n` };
}

/** To stderr, and to `.tollgate/hooks.log` when we know the repository (agents often hide a hook's stderr). */
export function logWarning(repoRoot: string | null, line: string, warn: (line: string) => void): void {
  warn(line);
  if (!repoRoot) return;
  try {
    appendFileSync(join(repoRoot, TOLLGATE_DIR, 'hooks.log'), `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
  } catch {
    // No .tollgate/ yet, or read-only: stderr has it.
  }
}
