import { TollgateError } from '../../../core/errors.js';
import { runProcess } from '../../../core/process.js';

/** `git rev-parse --git-path <name>`, absolute: respects `core.hooksPath` and worktrees. */
export async function gitPath(repoRoot: string, name: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await runProcess('git', ['rev-parse', '--path-format=absolute', '--git-path', name], {
    cwd: repoRoot,
    ...(env ? { env } : {}),
    timeoutMs: 30_000,
  });
  if (result.exitCode !== 0)
    throw new TollgateError('not_a_repo', `${repoRoot}: not a git repository (${result.stderr.trim()})`);
  return result.stdout.trim();
}
