import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { fixedGitEnv } from '../../core/change-set/snapshot-git-config.js';
import { childProcess } from '../../core/child-process-lazy.js';
import type { RegisteredHookAgent } from './index.js';
import type { StopHookAnswer } from './stop-context.js';

/**
 * What in the hook's environment or payload changes what it checks: said on every stop, to the user (the agent's
 * `systemMessage` where it has one) and on stderr and in `.tollgate/hooks.log`, so a gate narrowed from outside the
 * config is seen. Nothing here spawns a process except when the payload's `cwd` is no repository while the hook's own
 * directory is one (a rare path).
 */
const USE_PREFIX = 'TOLLGATE_USE_';
const OFF_VALUES = new Set(['0', 'false']);

function isInside(child: string, parent: string): boolean {
  const path = relative(parent, child);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The warnings about the environment alone (no payload needed). */
export function environmentWarnings(env: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  if (env.TOLLGATE_ACTIVE === '1') {
    warnings.push(
      'TOLLGATE_ACTIVE=1 is set, so this stop is not gated at all (the variable is meant only for the reviewers tollgate starts)',
    );
  }
  const off = Object.keys(env)
    .filter((key) => key.startsWith(USE_PREFIX) && OFF_VALUES.has((env[key] ?? '').trim().toLowerCase()))
    .sort();
  if (off.length > 0) {
    const names = off.map((key) => `${key}=${env[key]!.trim()}`).join(', ');
    warnings.push(`${names} turns ${off.length === 1 ? 'a validator' : 'validators'} off for this check`);
  }
  if (env.TOLLGATE_CONFIG) {
    warnings.push(
      `TOLLGATE_CONFIG=${env.TOLLGATE_CONFIG} is set: the config is read from there, not from the repository's tollgate.config.yaml`,
    );
  }
  return warnings;
}

function gitTopLevel(cwd: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((done) => {
    childProcess().execFile(
      'git',
      ['rev-parse', '--show-toplevel'],
      { cwd, env: fixedGitEnv(env), timeout: 10_000 },
      (error, stdout) => done(error ? null : stdout.trim()),
    );
  });
}

/**
 * When the payload names a `cwd` outside the repository the hook runs in, the hook judges that other directory:
 * another repository, or none (then nothing at all).
 */
export async function payloadCwdWarning(input: {
  payloadCwd: string | null;
  hookCwd: string;
  /** The repository found from the payload's cwd, or null when it is none. */
  checkedRoot: string | null;
  env: NodeJS.ProcessEnv;
}): Promise<{ warning: string; hookRoot: string | null } | null> {
  const { payloadCwd, checkedRoot } = input;
  if (!payloadCwd) return null;
  const hookCwd = realOrSame(resolve(input.hookCwd));
  if (checkedRoot) {
    if (isInside(hookCwd, checkedRoot)) return null;
    const hookRoot = await gitTopLevel(hookCwd, input.env);
    if (hookRoot === null) return null; // the hook runs outside any repository: the payload's is the only one
    return {
      warning: `the payload's cwd (${payloadCwd}) is outside this repository (${hookRoot}): the hook checks ${checkedRoot} instead`,
      hookRoot,
    };
  }
  if (isInside(realOrSame(resolve(hookCwd, payloadCwd)), hookCwd)) return null;
  const hookRoot = await gitTopLevel(hookCwd, input.env);
  if (hookRoot === null) return null;
  return {
    warning: `the payload's cwd (${payloadCwd}) is outside this repository (${hookRoot}) and in no repository: nothing was checked`,
    hookRoot,
  };
}

/** The answer with the warnings added to the agent's `systemMessage`, for the agents that show one. */
export function withWarnings(
  agent: RegisteredHookAgent,
  answer: StopHookAnswer,
  warnings: readonly string[],
): StopHookAnswer {
  if (warnings.length === 0 || !('systemMessage' in agent.allow('probe'))) return answer;
  const reply = JSON.parse(answer.stdout) as Record<string, unknown>;
  const text = `tollgate: ${warnings.join('; ')}.`;
  reply.systemMessage = typeof reply.systemMessage === 'string' ? `${reply.systemMessage} ${text}` : text;
  return { ...answer, stdout: `${JSON.stringify(reply)}\n` };
}
