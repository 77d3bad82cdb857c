import { REVIEWER_ENV_FLAG, type RunProcessFn } from './run-agent.js';
import type { AgentAdapter } from './types.js';

export interface CliVersionOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  runProcess: RunProcessFn;
  signal?: AbortSignal;
}

/** The first non-empty line of `<bin> --version`, or null when it printed none (not installed, broken). */
export async function readAgentCliVersion(adapter: AgentAdapter, options: CliVersionOptions): Promise<string | null> {
  const run = await options.runProcess(adapter.bin, adapter.versionArgs, {
    cwd: options.cwd,
    env: { ...options.env, [REVIEWER_ENV_FLAG]: '1' },
    timeoutMs: 10_000,
    maxOutputBytes: 1 << 20,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return (
    run.stdout
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? null
  );
}
