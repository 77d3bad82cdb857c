import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { GitRunner } from './git.js';
import type { ChangeSetBase } from './types.js';

/**
 * The base an agent cannot move. A base found by resolution (upstream, default branch, HEAD, config) is accepted only
 * when every commit under it is already trusted: reachable from a commit tollgate validated (the HEAD of a passing
 * run) or from a base an earlier run used, both read from tollgate's signed `.tollgate/history.json`. Otherwise the
 * change starts at the newest trusted commit under HEAD, so commits that reached the base some other way stay part of
 * the change: `git update-ref`, a commit on `main` with no upstream, and any fetch. A reflog's text is whatever
 * `update-ref -m` was told, and `git fetch . HEAD:refs/remotes/origin/main` is a real fetch of the agent's own commit,
 * so neither is evidence. Upstream work that was fetched and merged becomes trusted with the first passing run that
 * contains it (docs/gate.md, "The base").
 *
 * `--base REV` is a person's choice and is honoured as given. With nothing signed yet (a first run), a remote-tracking
 * base ref is held to the oldest value its reflog records (what the clone or first fetch left, before any later move
 * was appended), and otherwise the resolved base is trusted as it is.
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

const COMMIT_ID = /^[0-9a-f]{40,64}$/;

export async function pinBase(git: GitRunner, input: PinBaseInput): Promise<ChangeSetBase> {
  const { resolved, head, trusted } = input;
  if (trusted === undefined || resolved.source === 'flag' || resolved.commit === null || head === null) return resolved;
  if (trusted.includes(resolved.commit)) return resolved;
  // Signed state alone moves a base; a reflog only anchors a first run, which has nothing signed yet.
  const ref = resolved.refName;
  const first =
    trusted.length === 0 && ref?.startsWith('refs/remotes/') ? await firstLogged(git, input.root, ref) : null;
  const points = first ? [first] : [...trusted];
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
 * The oldest value of `ref` its reflog records: the value before its first logged update, else what that update wrote
 * (`git clone` does not log the remote-tracking refs it writes; a fetch or push that creates one logs it from zero);
 * null without a reflog. Later moves are appended, so they never change this answer, whatever their text says. The
 * log file is read as git writes it (`old new ident time zone<TAB>subject`): `git reflog show` stops at an entry
 * without a subject, which is exactly what `git update-ref` leaves.
 */
async function firstLogged(git: GitRunner, root: string, ref: string): Promise<string | null> {
  const where = await git.run(['rev-parse', '--git-path', `logs/${ref}`]);
  if (where.exitCode !== 0) return null;
  const text = await readFile(resolve(root, where.stdout.trim()), 'utf8').catch(() => '');
  const firstLine = text.split('\n').find(Boolean);
  if (!firstLine) return null;
  const [before, after] = firstLine.split(' ');
  const usable = (commit: string | undefined) => commit !== undefined && COMMIT_ID.test(commit) && !/^0+$/.test(commit);
  if (usable(before)) return before!;
  return usable(after) ? after! : null;
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
