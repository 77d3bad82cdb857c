import { TollgateError } from '../../core/errors.js';
import { runProcess } from '../../core/process.js';

export interface GithubRepository {
  host: string;
  owner: string;
  name: string;
}

/**
 * `owner/name` and host from a remote URL: `https://github.com/o/r(.git)`, `git@github.com:o/r.git`,
 * `ssh://git@host/o/r.git`. Null for anything else.
 */
function parseRemoteUrl(url: string): GithubRepository | null {
  const trimmed = url.trim();
  const scp = /^[\w.-]+@([\w.-]+):([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(trimmed);
  if (scp) return { host: scp[1]!, owner: scp[2]!, name: scp[3]! };
  try {
    const parsed = new URL(trimmed);
    const parts = parsed.pathname
      .replace(/^\/+|\/+$/g, '')
      .replace(/\.git$/, '')
      .split('/');
    if (parts.length < 2 || !parsed.hostname) return null;
    return { host: parsed.hostname, owner: parts.at(-2)!, name: parts.at(-1)! };
  } catch {
    return null;
  }
}

/** `--repo owner/name` [on github.com unless the origin remote says another host]. */
export function parseRepoFlag(value: string): { owner: string; name: string } {
  const match = /^([\w.-]+)\/([\w.-]+)$/.exec(value.trim());
  if (!match) throw new TollgateError('usage', `--repo: expected OWNER/NAME, got ${JSON.stringify(value)}`);
  return { owner: match[1]!, name: match[2]! };
}

export async function originRepository(repoRoot: string, env: NodeJS.ProcessEnv): Promise<GithubRepository> {
  const result = await runProcess('git', ['remote', 'get-url', 'origin'], { cwd: repoRoot, env, timeoutMs: 10_000 });
  const url = result.stdout.trim();
  const parsed = result.exitCode === 0 ? parseRemoteUrl(url) : null;
  if (!parsed) {
    throw new TollgateError(
      'usage',
      result.exitCode === 0
        ? `git remote "origin": ${JSON.stringify(url)} does not name a GitHub repository; pass --repo OWNER/NAME`
        : 'git remote "origin" is not set; pass --repo OWNER/NAME',
    );
  }
  return parsed;
}

export async function currentBranch(repoRoot: string, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runProcess('git', ['symbolic-ref', '--quiet', '--short', 'HEAD'], {
    cwd: repoRoot,
    env,
    timeoutMs: 10_000,
  });
  const branch = result.stdout.trim();
  if (result.exitCode !== 0 || branch === '') {
    throw new TollgateError('usage', 'HEAD is detached, so there is no branch to find a pull request for; pass --pr N');
  }
  return branch;
}
