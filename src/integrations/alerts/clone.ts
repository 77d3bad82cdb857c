import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runProcess } from '../../core/process.js';
import type { Redact } from './mask.js';

/**
 * The repository copies validate-alert hands to agents. One full-history clone (`_shared_repo/`: a secret may live
 * only in an old commit, which `--depth=1` cannot see), then a fast local clone per analysis (objects hard-linked).
 *
 * The token never reaches `.git/config`, argv, logs or errors: it travels as `http.extraHeader` in the environment of
 * the one git command that needs it (`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, git ≥ 2.31), the
 * clone URL never carries user info, and every message is masked.
 */
export interface GitRunOptions {
  env: NodeJS.ProcessEnv;
  redact: Redact;
  timeoutMs: number;
  signal?: AbortSignal;
}

export type CloneResult = { ok: true } | { ok: false; message: string };

/** Refs under which the location commits are kept reachable (so that a later gc or a local clone keeps them). */
const LOCATION_REF_PREFIX = 'refs/tollgate/locations/';

/** `https://user:pw@host/x.git` → `https://host/x.git`: the URL git stores never holds a credential. */
export function stripUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

/**
 * Environment of an authenticated git command: the header rides in env-provided config, credential helpers are off
 * (nothing is stored or asked for), no gc or maintenance runs on its own, and inherited `GIT_*` variables that would
 * redirect git are dropped.
 */
export function gitAuthEnv(base: NodeJS.ProcessEnv, token: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (!/^GIT_(DIR|WORK_TREE|INDEX_FILE|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|CONFIG_PARAMETERS)$/.test(key))
      env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  // No automatic gc or maintenance in these throwaway clones: a detached gc leaves the process group, so a stopped
  // sweep could not kill it, and it would go on writing into a clone that is being removed from `--out`.
  const config: Array<[string, string]> = [
    ['credential.helper', ''],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
  ];
  if (token) {
    const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
    config.push(['http.extraHeader', `Authorization: Basic ${basic}`]);
  }
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

async function git(cwd: string, args: string[], options: GitRunOptions): Promise<CloneResult> {
  const result = await runProcess('git', args, {
    cwd,
    env: options.env,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: 1024 * 1024,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (result.exitCode === 0) return { ok: true };
  const why = result.spawnError
    ? `could not start git (${result.spawnError.code ?? result.spawnError.message})`
    : result.timedOut
      ? `timed out after ${Math.round(options.timeoutMs / 1000)} s`
      : result.stderr.trim().split('\n').at(-1) || `exit code ${result.exitCode}`;
  return { ok: false, message: options.redact(`git ${args[0] === '-C' ? args[2] : args[0]}: ${why}`) };
}

export interface CloneOptions extends GitRunOptions {
  /** Commits the alert's locations name; fetched by id when no branch reaches them (force-pushed, PR heads). */
  commits?: readonly string[];
}

/** A full-history clone of `url` into `dest` (removed first: a stale copy is never reused). */
export async function cloneFull(url: string, dest: string, options: CloneOptions): Promise<CloneResult> {
  await rm(dest, { recursive: true, force: true });
  await mkdir(dirname(dest), { recursive: true });
  // --no-hardlinks: when the source is the user's own checkout (--local), share no inode with it.
  const cloned = await git(dirname(dest), ['clone', '--quiet', '--no-hardlinks', stripUserInfo(url), dest], options);
  if (!cloned.ok) return cloned;
  // An alert's locations often name one commit many times (120 lines of one file): look each commit up once.
  for (const commit of new Set(options.commits ?? [])) {
    if (!/^[0-9a-f]{7,64}$/i.test(commit)) continue;
    const present = await git(dest, ['cat-file', '-e', `${commit}^{commit}`], options);
    if (!present.ok) await git(dest, ['fetch', '--quiet', 'origin', commit], options);
    // Best effort: a commit GitHub no longer serves is named in the prompt and the agent says so.
    await git(dest, ['update-ref', `${LOCATION_REF_PREFIX}${commit}`, commit], options);
  }
  return { ok: true };
}

/**
 * A fast private copy of the shared clone for one analysis: `clone --local` hard-links the (immutable) objects, then
 * the shared clone's remote branches, tags and location refs are fetched so every branch and old commit is there too.
 * Its `origin` is set back to the real repository URL, without credentials.
 */
export async function copyClone(
  shared: string,
  dest: string,
  originUrl: string,
  options: GitRunOptions,
): Promise<CloneResult> {
  await rm(dest, { recursive: true, force: true });
  await mkdir(dirname(dest), { recursive: true });
  const cloned = await git(dirname(dest), ['clone', '--quiet', '--local', shared, dest], options);
  if (!cloned.ok) return cloned;
  const fetched = await git(
    dest,
    [
      'fetch',
      '--quiet',
      'origin',
      '+refs/remotes/origin/*:refs/remotes/origin/*',
      '+refs/tags/*:refs/tags/*',
      `+${LOCATION_REF_PREFIX}*:${LOCATION_REF_PREFIX}*`,
    ],
    options,
  );
  if (!fetched.ok) return fetched;
  return git(dest, ['remote', 'set-url', 'origin', stripUserInfo(originUrl)], options);
}
