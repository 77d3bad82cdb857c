import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { GitRunner } from './git.js';
import type { ChangeSetBase } from './types.js';

/**
 * The base an agent cannot move. A base found by resolution (upstream, default branch, HEAD, config) is accepted only
 * when every commit under it is already trusted: reachable from a commit tollgate validated (the HEAD of a passing
 * run), from a base an earlier run used, or from what git fetched for the base's ref (its reflog says `fetch`, `pull`
 * or `clone`). Otherwise the change starts at the newest trusted commit under HEAD, so commits that reached the base
 * some other way (`git update-ref`, a commit on `main` with no upstream, a push) stay part of the change.
 *
 * `--base REV` is a person's choice and is honoured as given. With nothing trusted yet (a repository tollgate has never
 * run in, and a base ref without a fetch in its reflog) the resolved base is trusted as it is.
 */
export interface PinBaseInput {
  /** The work tree root (git's paths are relative to it). */
  root: string;
  resolved: ChangeSetBase;
  /** HEAD's commit, or null in a repository without commits. */
  head: string | null;
  /** Validated HEADs and earlier bases (`.tollgate/history.json`); undefined: no pinning at all. */
  trusted: readonly string[] | undefined;
}

/** Reflog subjects git writes when a ref takes what a remote sent. */
const FETCHED = /^(fetch|pull|clone)\b/;
const COMMIT_ID = /^[0-9a-f]{40,64}$/;

export async function pinBase(git: GitRunner, input: PinBaseInput): Promise<ChangeSetBase> {
  const { resolved, head, trusted } = input;
  if (trusted === undefined || resolved.source === 'flag' || resolved.commit === null || head === null) return resolved;
  if (trusted.includes(resolved.commit)) return resolved;
  const fetched = resolved.refName ? await lastFetched(git, input.root, resolved.refName) : null;
  const points = fetched ? [...trusted, fetched] : [...trusted];
  // Nothing to hold the base to yet: the first run trusts what it resolved (documented in docs/gate.md).
  if (points.length === 0) return resolved;
  if (await coveredBy(git, resolved.commit, points)) return resolved;
  const pinnedAt = await newestTrustedUnder(git, head, points);
  const pinned: ChangeSetBase['pinned'] = {
    resolvedRef: resolved.ref,
    resolvedCommit: resolved.commit,
    unvalidated: await countBetween(git, pinnedAt, resolved.commit),
    ...(resolved.refName ? { resolvedRefName: resolved.refName } : {}),
  };
  if (pinnedAt === null) return { ref: null, commit: null, source: 'pinned', pinned };
  return { ref: pinnedAt.slice(0, 12), commit: pinnedAt, source: 'pinned', pinned };
}

/**
 * The newest value of `ref` that git wrote while fetching, pulling or cloning, else the value it had before its
 * oldest logged update (what `git clone` left: it does not log the remote-tracking refs it writes); null when its
 * reflog has neither. The log file is read as git writes it (`old new ident time zone<TAB>subject`): `git reflog show`
 * stops at an entry without a subject, which is exactly what `git update-ref` leaves.
 */
async function lastFetched(git: GitRunner, root: string, ref: string): Promise<string | null> {
  const where = await git.run(['rev-parse', '--git-path', `logs/${ref}`]);
  if (where.exitCode !== 0) return null;
  const text = await readFile(resolve(root, where.stdout.trim()), 'utf8').catch(() => '');
  const lines = text.split('\n').filter(Boolean);
  for (const line of [...lines].reverse()) {
    const tab = line.indexOf('\t');
    const commit = line.split(' ')[1];
    if (tab > 0 && commit && COMMIT_ID.test(commit) && FETCHED.test(line.slice(tab + 1))) return commit;
  }
  // The whole log is read, never a window of its newest entries: enough `git update-ref` moves would bury the fetch
  // (or what the clone left), and a first run would then trust the moved ref.
  const before = lines.length > 0 ? lines[0]!.split(' ')[0] : undefined;
  return before && COMMIT_ID.test(before) && !/^0+$/.test(before) ? before : null;
}

/** True when every commit reachable from `commit` is reachable from one of `points`. */
async function coveredBy(git: GitRunner, commit: string, points: readonly string[]): Promise<boolean> {
  // `--ignore-missing`: a trusted commit that history rewriting let git collect is simply no longer a point.
  const result = await git.run(['rev-list', '--ignore-missing', '--max-count=1', commit, '--not', ...points]);
  return result.exitCode === 0 && result.stdout.trim() === '';
}

/**
 * The newest trusted commit HEAD contains: the first boundary of `HEAD --not points`. HEAD itself when it is trusted;
 * null when HEAD shares no history with any point (then the whole history is the change).
 */
async function newestTrustedUnder(git: GitRunner, head: string, points: readonly string[]): Promise<string | null> {
  const output = await git.output(['rev-list', '--ignore-missing', '--boundary', head, '--not', ...points]);
  const lines = output.split('\n').filter(Boolean);
  if (lines.length === 0) return head;
  const boundary = lines.find((line) => line.startsWith('-'));
  return boundary ? boundary.slice(1) : null;
}

async function countBetween(git: GitRunner, from: string | null, to: string): Promise<number> {
  const range = from === null ? [to] : [`${from}..${to}`];
  const result = await git.run(['rev-list', '--count', ...range]);
  return result.exitCode === 0 ? Number(result.stdout.trim()) || 0 : 0;
}
