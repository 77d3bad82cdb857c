import type { RegisteredAdapter } from '../../agents/index.js';
import type { AgentRunOutcome } from '../../agents/run-agent.js';
import { runAgent } from '../../agents/run-agent.js';
import type { AgentSettings } from '../../agents/types.js';
import type { CallUsage } from './usage.js';

/** One call to an agent CLI in a validate-alert stage, and what it leaves for the stream log and diagnostics. */
export interface AgentCallRecord {
  agent: string;
  /** The exact argv (masked when written). */
  argv: string[];
  outcome: AgentRunOutcome['kind'];
  message?: string;
  durationMs: number;
  usage: CallUsage;
  stdout: string;
  stderr: string;
}

export interface AgentCallOptions {
  adapter: RegisteredAdapter;
  settings: AgentSettings;
  prompt: string;
  /** The agent's cwd: its own workspace (analysis, challenge) or the alert folder (judge, read-only). */
  cwd: string;
  purpose: 'analysis' | 'review';
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  sessionId?: string;
  resume?: boolean;
  answerSchema?: object;
  signal?: AbortSignal;
}

export async function callAgent(
  options: AgentCallOptions,
): Promise<{ outcome: AgentRunOutcome; record: AgentCallRecord }> {
  const outcome = await runAgent({
    adapter: options.adapter,
    prompt: options.prompt,
    answerSchema: options.answerSchema ?? { type: 'object' },
    repoRoot: options.cwd,
    settings: options.settings,
    timeoutMs: Math.max(1, options.timeoutMs),
    env: options.env,
    purpose: options.purpose,
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    ...(options.resume ? { resume: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const record: AgentCallRecord = {
    agent: options.adapter.name,
    argv: outcome.raw.argv,
    outcome: outcome.kind,
    ...(outcome.kind === 'answer' ? {} : { message: outcome.message }),
    durationMs: outcome.raw.durationMs,
    usage: options.adapter.usageOf(outcome.raw.stdout),
    stdout: outcome.raw.stdout,
    stderr: outcome.raw.stderr,
  };
  return { outcome, record };
}

/** The stream log of a slot: every call's argv, outcome and full output, in order (masked by the writer). */
export function streamLog(records: readonly AgentCallRecord[]): string {
  return records
    .map(
      (record, index) =>
        `=== call ${index + 1}: ${record.argv.map((arg) => (arg.length > 200 ? `${arg.slice(0, 200)}…` : arg)).join(' ')}\n` +
        `=== outcome: ${record.outcome}${record.message ? ` (${record.message})` : ''} after ${record.durationMs} ms\n` +
        `--- stdout\n${record.stdout}\n--- stderr\n${record.stderr}\n`,
    )
    .join('\n');
}
