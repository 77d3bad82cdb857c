import { runProcess } from '../../core/process.js';
import type { ActionEnvironment } from './action-inputs.js';
import { runWithoutTokenAncestors } from './tokenless-run.js';

/** The child already printed its one-line error; the step exits with its code (2 usage, 3 internal…). */
export class ChildFailed extends Error {
  constructor(readonly exitCode: number | null) {
    super(`tollgate exited with ${exitCode}`);
  }
}

/**
 * A tollgate subcommand run for the Action: same Node, the workspace as cwd, its stderr shown live in the step log.
 * An exit code outside `accept` (the codes that carry a result) throws `ChildFailed`.
 */
export async function runTollgateChild(
  self: string,
  args: readonly string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    accept: readonly number[];
    stderr(text: string): void;
    /** Runs a pull request's code: start it where no ancestor holds the token (see `tokenless-run.ts`). */
    untrusted?: boolean;
  },
): Promise<{ exitCode: number; stdout: string }> {
  const run = options.untrusted
    ? await runWithoutTokenAncestors(process.execPath, [self, ...args], {
        cwd: options.cwd,
        env: options.env,
        onStderr: options.stderr,
      })
    : await runProcess(process.execPath, [self, ...args], {
        cwd: options.cwd,
        env: options.env,
        timeoutMs: 6 * 3600_000,
        onOutput: (stream, chunk) => {
          if (stream === 'stderr') options.stderr(chunk.toString('utf8'));
        },
      });
  if (run.exitCode === null || !options.accept.includes(run.exitCode)) throw new ChildFailed(run.exitCode);
  return { exitCode: run.exitCode, stdout: run.stdout };
}

/**
 * The environment a gate or scan child gets: the Action's token never reaches it, nor the checks it runs. A
 * JavaScript action's process also holds every input as `INPUT_*` (the token among them) and the runner's own
 * tokens (cache and artifact service, OIDC), which a pull request's code could use to poison caches or mint tokens.
 */
const RUNNER_TOKENS = new Set([
  'TOLLGATE_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
]);

export function withoutTokens(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !RUNNER_TOKENS.has(name) && !name.startsWith('INPUT_')),
  );
}

/** What a command of the Action needs of its step to start a tollgate child. */
export interface ChildIo {
  env: NodeJS.ProcessEnv;
  /** The tollgate entry point the child runs under the same Node. */
  self: string;
  stderr(text: string): void;
}

/**
 * A tollgate subcommand over the pull request's code (`run`, `scan`): its exit code 0 or 1 is the result, no token
 * reaches it, and it is started where no ancestor holds one.
 */
export async function runPullRequestChild(
  input: ActionEnvironment,
  args: readonly string[],
  io: ChildIo,
): Promise<{ exitCode: number }> {
  // In CI the policy is the base commit's, with no way to accept an edit: the pull request cannot relax its own gate.
  const env: NodeJS.ProcessEnv = { ...withoutTokens(io.env), TOLLGATE_POLICY: 'base' };
  if (input.TOLLGATE_CONFIG_INPUT) env.TOLLGATE_CONFIG = input.TOLLGATE_CONFIG_INPUT;
  const { exitCode } = await runTollgateChild(io.self, args, {
    cwd: input.GITHUB_WORKSPACE,
    env,
    accept: [0, 1],
    stderr: io.stderr,
    untrusted: true,
  });
  return { exitCode };
}
