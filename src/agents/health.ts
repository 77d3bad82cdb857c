import { z } from 'zod';
import { runProcess } from '../core/process.js';
import { readState, updateState } from '../core/state/results-store.js';
import { REVIEWER_ENV_FLAG, type RunProcessFn } from './run-agent.js';
import type { AgentAdapter } from './types.js';

/**
 * Adapter health: an adapter that hit a usage limit cools down for an hour, recorded in `.tollgate/state.json` under
 * `unhealthy_adapters` (so the cooldown survives branch switches and shows in `tollgate agents`). After the cooldown,
 * the adapter's probe runs; if it passes, the mark is cleared and the adapter rejoins the review pool.
 */
export const COOLDOWN_MS = 60 * 60 * 1000;
const PROBE_TIMEOUT_MS = 10_000;
const STATE_KEY = 'unhealthy_adapters';

const unhealthyMarkSchema = z.object({ marked_at: z.string(), reason: z.string() });
export type UnhealthyMark = z.output<typeof unhealthyMarkSchema>;
export type UnhealthyAdapters = Record<string, UnhealthyMark>;

/** Entries that do not parse (hand edits, a future format) are ignored rather than failing the run. */
function readMarks(value: unknown): UnhealthyAdapters {
  const marks: UnhealthyAdapters = {};
  if (typeof value !== 'object' || value === null) return marks;
  for (const [name, entry] of Object.entries(value)) {
    const parsed = unhealthyMarkSchema.safeParse(entry);
    if (parsed.success && !Number.isNaN(Date.parse(parsed.data.marked_at))) marks[name] = parsed.data;
  }
  return marks;
}

export async function readUnhealthyAdapters(repoRoot: string): Promise<UnhealthyAdapters> {
  const state = (await readState(repoRoot)) as Record<string, unknown>;
  return readMarks(state[STATE_KEY]);
}

/**
 * Read-modify-write of the `unhealthy_adapters` key only, under the state lock and written atomically (the results
 * store keeps every other key as it is).
 */
async function updateMarks(repoRoot: string, mutate: (marks: UnhealthyAdapters) => void): Promise<void> {
  await updateState(repoRoot, (state) => {
    const record = state as Record<string, unknown>;
    const marks = readMarks(record[STATE_KEY]);
    mutate(marks);
    if (Object.keys(marks).length === 0) delete record[STATE_KEY];
    else record[STATE_KEY] = marks;
  });
}

export function markAdapterUnhealthy(repoRoot: string, name: string, reason: string, now: Date): Promise<void> {
  return updateMarks(repoRoot, (marks) => {
    marks[name] = { marked_at: now.toISOString(), reason };
  });
}

export function clearAdapterHealth(repoRoot: string, name: string): Promise<void> {
  return updateMarks(repoRoot, (marks) => {
    delete marks[name];
  });
}

/** Epoch ms when the cooldown of `mark` ends. */
export function cooldownEndsAt(mark: UnhealthyMark): number {
  return Date.parse(mark.marked_at) + COOLDOWN_MS;
}

export function isCoolingDown(mark: UnhealthyMark | undefined, now: number): mark is UnhealthyMark {
  return mark !== undefined && now < cooldownEndsAt(mark);
}

export type ProbeResult =
  | { kind: 'ok'; helpText: string }
  | { kind: 'not_installed'; message: string }
  /** A binary of that name exists but it is another program (Cursor's `agent` vs xAI's). */
  | { kind: 'unrecognized'; message: string }
  | { kind: 'not_logged_in'; message: string }
  | { kind: 'broken'; message: string };

function probeEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, [REVIEWER_ENV_FLAG]: '1' };
  delete env.CLAUDECODE;
  return env;
}

export interface ProbeOptions {
  repoRoot: string;
  env?: NodeJS.ProcessEnv;
  runProcess?: RunProcessFn;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Is the CLI installed, is it the right program, and is it logged in? `<bin> --help` (10 s), then the adapter's
 * offline auth check where it has one. Never throws: a missing binary is a result.
 */
export async function probeAgent(adapter: AgentAdapter, options: ProbeOptions): Promise<ProbeResult> {
  const spawn = options.runProcess ?? runProcess;
  const common = {
    cwd: options.repoRoot,
    env: probeEnv(options.env ?? process.env),
    timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
    maxOutputBytes: 1024 * 1024,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const help = await spawn(adapter.bin, adapter.probeArgs, common);
  if (help.spawnError?.code === 'ENOENT') {
    return {
      kind: 'not_installed',
      message: `${adapter.bin} is not on PATH; install it with: ${adapter.installCommand}`,
    };
  }
  const helpText = `${help.stdout}\n${help.stderr}`;
  if (help.spawnError || help.timedOut || help.exitCode !== 0) {
    const why = help.spawnError
      ? (help.spawnError.code ?? help.spawnError.message)
      : help.timedOut
        ? `no answer within ${Math.round(common.timeoutMs / 1000)} s`
        : `exit code ${help.exitCode}`;
    return { kind: 'broken', message: `\`${[adapter.bin, ...adapter.probeArgs].join(' ')}\` failed (${why})` };
  }
  if (adapter.probeExpect && !adapter.probeExpect.test(helpText)) {
    return {
      kind: 'unrecognized',
      message: `the \`${adapter.bin}\` on PATH is not ${adapter.title}; install it with: ${adapter.installCommand}`,
    };
  }
  if (adapter.authCheckArgs) {
    const auth = await spawn(adapter.bin, adapter.authCheckArgs, common);
    if (!auth.timedOut && auth.exitCode !== 0) {
      return { kind: 'not_logged_in', message: `${adapter.title} is not logged in; run \`${adapter.loginCommand}\`` };
    }
  }
  return { kind: 'ok', helpText };
}
