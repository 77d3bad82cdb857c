import { AGENT_ENVIRONMENT_MARKERS } from '../../src/agents/agent-environment.js';
import { type ProcessResult, runProcess } from '../../src/core/process.js';
import { CLI_PATH } from './run-cli.js';
import { timeBudget } from './time-budget.js';

/** The environment with no coding agent's marker in it: what a person's own shell has. */
export function personEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env, TOLLGATE_DEBUG: '' };
  for (const name of AGENT_ENVIRONMENT_MARKERS) delete clean[name];
  return clean;
}

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The built CLI on a pseudo-terminal (util-linux `script`), as a person runs it in their own terminal, typing `typed`
 * at any prompt. `script` merges the command's stdout and stderr into its own stdout.
 */
export function atTerminal(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; typed?: string },
): Promise<ProcessResult> {
  const command = [process.execPath, CLI_PATH, ...args].map(shellQuote).join(' ');
  return runProcess('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: options.cwd,
    env: personEnv(options.env),
    input: `${options.typed ?? ''}\n`,
    timeoutMs: timeBudget(30_000),
  });
}
