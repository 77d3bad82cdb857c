import {
  chmodSync,
  constants,
  copyFileSync,
  readFileSync,
  realpathSync,
  type Stats,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { withKeptHeap } from '../kept-heap-env.js';
import { withPrivateTempDir } from '../private-temp.js';
import type { ProcessResult } from '../process.js';
import type { CopiedIndex, EarlyStage } from './early-stage-type.js';
import type { GitRunner } from './git.js';
import { parseHiddenEntries, revealHiddenEntries } from './hidden-entries.js';
import { type IndexFacts, readIndexFacts } from './index-facts.js';
import { indexFileIs } from './index-file-is.js';
import { forgetStatInput, pathspecInput, type SecondBlindEntry, secondBlindEntries } from './second-blind-entries.js';

/**
 * Tollgate's state folder: its untracked files are never staged, so tollgate's own state cannot change the change set
 * or its fingerprint. Files tracked under it (force-added) are part of the change like any other.
 */
export const STATE_DIR = '.tollgate';

export interface TempIndex {
  /** Environment that points git at the temporary index. */
  env: Record<string, string>;
  /**
   * Settles when `git add -A` is done, with the paths it could not read (permissions, an embedded repository without a
   * commit). Until then, `work` may run what does not need the index.
   */
  staged: Promise<string[]>;
  /**
   * The temporary index as it is now, with its file times: read once git has staged the tree (and any fix-up of the
   * entries is done), for a later snapshot of the same work tree to start from (`UserIndex.startFrom`).
   */
  keep(): StagedIndex | null;
  /** Whether the temporary index is now, byte for byte, `before` (what `keep` would give, without holding it whole). */
  sameAs(before: StagedIndex): boolean;
}

/** An index a snapshot's `git add` wrote: its bytes and the times of its file (git's racy-clean check reads the mtime). */
export interface StagedIndex {
  bytes: Buffer;
  atime: Date;
  mtime: Date;
}

export interface UserIndex {
  /** The index git uses for the work tree. */
  path: string;
  /**
   * The repository's object format (or its promise): the copy's own bytes then say whether an entry is flagged, which
   * saves listing the whole index with git, and which entries git's stat check is blind to (second-blind-entries.ts).
   */
  objectFormat: Promise<string> | string;
  /** Abandons the snapshot: a `git add` still running is stopped, so the folder is removed without waiting for it. */
  signal?: AbortSignal;
  /**
   * Start from this index, which an earlier snapshot of the same work tree staged, instead of a copy of the user's:
   * git then reads again only the files whose stat data changed since that snapshot, where the user's index (which a
   * snapshot never updates) would have it read and hash every edited and untracked file once more. The flags that hide
   * entries were cleared in it already; any left are found and cleared again as for the user's index.
   */
  startFrom?: StagedIndex;
  /**
   * A `git add` into a copy of this index begun before the CLI loaded (`startEarlyStage`): used in place of starting
   * one, when it was begun for this work tree and index; stopped and dropped otherwise. Never with `startFrom`.
   */
  early?: EarlyStage;
}

/**
 * Runs `work` with a private index that holds the whole working tree (tracked, staged, unstaged and untracked files
 * that .gitignore does not exclude), without touching the user's index, stash or working tree.
 *
 * The temporary index starts as a copy of the user's one, so `git add` only re-reads files whose stat data changed
 * (the copy keeps the stat cache); it lives in a private 0700 directory as a 0600 file and is removed even on error.
 */
export async function withTempIndex<T>(
  git: GitRunner,
  userIndex: UserIndex,
  work: (index: TempIndex) => Promise<T>,
): Promise<T> {
  const { path: userIndexPath, objectFormat, signal, startFrom, early } = userIndex;
  const inFolder = async (
    dir: string,
    copy: (indexFile: string) => CopiedIndex | null,
    started?: Promise<ProcessResult>,
  ) => {
    let staged: Promise<string[]> | undefined;
    try {
      const indexFile = join(dir, 'index');
      const copied = copy(indexFile);
      const env = { GIT_INDEX_FILE: indexFile };
      // Read from the very bytes `git add` starts from, before it rewrites them, while it runs on the other core:
      // flagged entries (git lists them from the user's index meanwhile) and the entries git's stat check is blind to
      // (it will not read their files, so they are staged again after it).
      const facts = Promise.resolve(objectFormat).then(
        (format) => ({
          format,
          facts: copied === null ? NO_INDEX : readIndexFacts(copied.bytes, format, git.cwd, STATE_DIR, copied.times),
        }),
        () => undefined, // the caller fails on its own; meanwhile, stage as if the index were unknown
      );
      const mayHide = facts.then((read) => read?.facts.mayHide ?? true);
      const blind = facts.then(
        (read): BlindInCopy | undefined =>
          read && { format: read.format, times: copied?.times, entries: read.facts.blind },
      );
      staged = stageWorkTree(git, { env, indexFile }, { mayHide, blind }, userIndexPath, signal, started);
      // `work` may await something else first; a failed `git add` must not count as unhandled meanwhile.
      staged.catch(() => undefined);
      return await work({
        env,
        staged,
        keep: () => keepIndex(indexFile),
        sameAs: (before) => indexFileIs(indexFile, before.bytes),
      });
    } finally {
      // Never pull the folder from under a running `git add`.
      await staged?.catch(() => undefined);
    }
  };
  // A `git add` started before the CLI loaded, for this very index and from a copy of it: taken as this snapshot's.
  if (early && startFrom === undefined && early.where.root === git.cwd && early.where.indexPath === userIndexPath) {
    const stop = () => early.stop();
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await inFolder(early.dir, () => early.copied, early.adding);
    } finally {
      signal?.removeEventListener('abort', stop);
      await early.close();
    }
  }
  if (early) discardEarlyStage(early);
  return withPrivateTempDir('tollgate-index-', (dir) =>
    inFolder(dir, (indexFile) => (startFrom ? writeIndex(startFrom, indexFile) : copyIndex(userIndexPath, indexFile))),
  );
}

/** A stage begun for another work tree or index: its `git add` is stopped and its folder removed, in the background. */
export function discardEarlyStage(early: EarlyStage): void {
  early.stop();
  early.close().catch(() => undefined);
}

/**
 * Copies the user's index to `indexFile` (0600) and returns the copy's bytes; null when there is no index yet (a fresh
 * repository with nothing staged: git starts an empty one). The kernel copies the file (no round trip of a
 * many-megabyte index through JavaScript), and the bytes are read back from the copy, the very bytes `git add` starts from.
 */
export function copyIndex(userIndexPath: string, indexFile: string): CopiedIndex | null {
  let original: Stats;
  try {
    // Stat first: should the user's index be replaced meanwhile, the copy gets the newer bytes with the older mtime,
    // which only makes git re-check more entries (see the mtime below), never fewer.
    original = statSync(userIndexPath);
    copyFileSync(userIndexPath, indexFile, constants.COPYFILE_EXCL);
    // The copy takes the original's mode; it lives in a private 0700 folder, and is ours alone from here on.
    chmodSync(indexFile, 0o600);
    // Keep the original's mtime: git's racy-clean check compares entries against the index file's own mtime, and a
    // copy stamped "now" would make a file edited in the same second as the last index write look unchanged.
    utimesSync(indexFile, original.atime, original.mtime);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return { bytes: readFileSync(indexFile), times: { mtimeMs: original.mtimeMs, ctimeMs: original.ctimeMs } };
}

/** A kept index written back as the temporary index (0600, in the private folder), with its original file times. */
function writeIndex(start: StagedIndex, indexFile: string): CopiedIndex {
  writeFileSync(indexFile, start.bytes, { mode: 0o600, flag: 'wx' });
  // As for a copy of the user's index: the mtime git wrote it with keeps its racy-clean check what it was.
  utimesSync(indexFile, start.atime, start.mtime);
  // Written by the snapshot's own git (its file private): as left by that write.
  return { bytes: start.bytes, times: { mtimeMs: start.mtime.getTime(), ctimeMs: start.mtime.getTime() } };
}

/** Null when there is none: `git add` of an empty tree into a fresh repository writes no index. */
function keepIndex(indexFile: string): StagedIndex | null {
  try {
    // Stat first, as in copyIndex: an older mtime than the bytes' only makes git re-check more entries, never fewer.
    const { atime, mtime } = statSync(indexFile);
    return { bytes: readFileSync(indexFile), atime, mtime };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * `git add -A` into the temporary index, then again for the entries whose index flags kept git from reading the file
 * (assume-unchanged, skip-worktree on a file that is on disk) and for tracked files under the state folder: the bytes
 * on disk decide, never the index's say-so. When the copy may hold such entries (`mayHide`), git lists them from the
 * user's index (which `ls-files` only reads) while the first add rewrites the copy; an index with none (the usual case)
 * is not listed at all.
 */
async function stageWorkTree(
  git: GitRunner,
  temp: { env: Record<string, string>; indexFile: string },
  copy: { mayHide: Promise<boolean>; blind: Promise<BlindInCopy | undefined> },
  userIndexPath: string,
  signal?: AbortSignal,
  started?: Promise<ProcessResult>,
): Promise<string[]> {
  const { env } = temp;
  const adding = addAll(git, env, null, signal, started);
  adding.catch(() => undefined); // awaited below
  const listing = (await copy.mayHide)
    ? git.output(['ls-files', '-v', '-z'], { env: { GIT_INDEX_FILE: userIndexPath } })
    : null;
  listing?.catch(() => undefined); // awaited below
  const inCopy = await copy.blind;
  const unreadable = await adding;
  if (signal?.aborted) return unreadable;
  const hidden =
    listing === null ? [] : await revealHiddenEntries(git, env, git.cwd, parseHiddenEntries(await listing, STATE_DIR));
  // Undefined: the object format is unknown, and the caller fails on that itself.
  const blind = inCopy === undefined ? [] : (inCopy.entries ?? blindAfterAdd(temp.indexFile, inCopy, git.cwd));
  if (blind.length > 0)
    await git.output(['update-index', '-z', '--index-info'], { env, input: forgetStatInput(blind) });
  const restage = new Map<string, Buffer>();
  for (const path of hidden) restage.set(path, Buffer.from(path));
  for (const { name } of blind) restage.set(name.toString('latin1'), name);
  if (restage.size === 0) return unreadable;
  return [...unreadable, ...(await addAll(git, env, [...restage.values()]))];
}

/** No index to copy (a fresh repository): nothing hides, nothing is blind. */
const NO_INDEX: IndexFacts = { mayHide: false, blind: [] };

/** The second-blind entries of the copy, or undefined when the walk did not understand it. */
interface BlindInCopy {
  format: string;
  /** The copy's file times, which `git add` read it with (none: there was no index to copy). */
  times: CopiedIndex['times'] | undefined;
  entries: SecondBlindEntry[] | undefined;
}

/**
 * The second-blind entries of the index `git add` wrote (under the snapshot's settings: no split index, no sparse
 * folders), for a copy of the user's index the walk did not understand. One it does not understand either stops the
 * snapshot: without it, git's stat check would decide which files are read.
 */
function blindAfterAdd(indexFile: string, copy: BlindInCopy, root: string): SecondBlindEntry[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(indexFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  // Against the copy's mtime: git read again, and recorded afresh, every entry racy under it.
  const blind = secondBlindEntries(bytes, copy.format, root, copy.times);
  if (blind === undefined) throw new Error('the temporary index git wrote has a form tollgate cannot read');
  return blind;
}

/**
 * `git add -A` into the temporary index: the whole tree but the state folder, or the given paths (read literally). `--ignore-errors` keeps going past a file git cannot read; such files are
 * named on stderr and come back as unreadable rather than vanishing. `core.splitIndex=false` keeps git from writing a
 * shared index file into the user's .git directory.
 */
async function addAll(
  git: GitRunner,
  env: Record<string, string>,
  paths: readonly Buffer[] | null,
  signal?: AbortSignal,
  started?: Promise<ProcessResult>,
): Promise<string[]> {
  const excluded = notTheChange(git.cwd);
  const result =
    paths === null
      ? await (started ?? startAddAll(git, env, signal))
      : await git.run(['add', '--all', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], {
          env: withKeptHeap({ ...env, GIT_LITERAL_PATHSPECS: '1' }, process.env, { hugePages: true }),
          input: pathspecInput(paths),
        });
  if (result.exitCode === 0 || signal?.aborted) return [];
  const stderr = withoutIgnoredStateDir(result.stderr, paths === null ? excluded : [STATE_DIR]);
  const unreadable = parseAddErrors(stderr);
  // A .gitignore that lists .tollgate/ makes older git (2.39) refuse the exclude pathspec after adding everything
  // else: that is the outcome we want, not a failure.
  if (unreadable.length === 0 && stderr.trim() === '') return [];
  if (unreadable.length === 0) throw new Error(`git add (temporary index) failed: ${stderr.trim()}`);
  return unreadable;
}

/**
 * Starts `git add -A` of the whole tree (but what `notTheChange` leaves out) into the index `env` names: the process
 * `addAll` waits for, also started by `startEarlyStage` before the rest of the CLI loads. No untracked cache, split
 * index or fsmonitor: the runner forces those off (SNAPSHOT_GIT_CONFIG).
 */
export function startAddAll(git: GitRunner, env: Record<string, string>, signal?: AbortSignal): Promise<ProcessResult> {
  const excluded = notTheChange(git.cwd);
  return git.run(
    ['add', '--all', '--ignore-errors', '--', '.', ...excluded.map((path) => `:(top,exclude)${path}`)],
    // The pathspec magic above must stay magic even if the user exports GIT_LITERAL_PATHSPECS. It writes a blob for
    // every new file content: glibc is told to keep its heap between them, in huge pages (withKeptHeap; on 20k files
    // its 1,400 page faults become about 500, a tenth less CPU).
    {
      env: withKeptHeap({ ...env, GIT_LITERAL_PATHSPECS: '0' }, process.env, { hugePages: true }),
      ...(signal ? { signal } : {}),
    },
  );
}

/**
 * stderr without git's "paths are ignored" notice when the only path it names is tollgate's own state folder (given
 * as an exclude pathspec), hints included. Any other ignored path keeps the notice, so it still fails loudly.
 */
export function withoutIgnoredStateDir(stderr: string, excluded: readonly string[] = [STATE_DIR]): string {
  const lines = stderr.split('\n');
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index] === IGNORED_NOTICE) {
      let next = index + 1;
      const listed: string[] = [];
      while (next < lines.length && lines[next] !== '' && !/^(hint|error|fatal|warning):/.test(lines[next]!)) {
        listed.push(lines[next]!);
        next += 1;
      }
      while (next < lines.length && lines[next]!.startsWith('hint:')) next += 1;
      if (listed.length > 0 && listed.every((path) => excluded.includes(path.replace(/\/$/, '')))) {
        index = next - 1;
        continue;
      }
    }
    kept.push(lines[index]!);
  }
  return kept.join('\n');
}

/**
 * What the snapshot leaves out of a work tree at `root`: tollgate's state folder, and the home folder of whoever started
 * tollgate when it lies inside the work tree (a throwaway HOME in a scratch repository): npm's logs, caches and
 * tollgate's own code cache and state key live there and change with every command, and HOME is the starter's
 * environment, not the change's to choose.
 */
function notTheChange(root: string): string[] {
  const home = process.env.HOME;
  if (!home) return [STATE_DIR];
  const inside = relative(realpathOr(root), realpathOr(home));
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return [STATE_DIR];
  return [STATE_DIR, inside.split(sep).join('/')];
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

const IGNORED_NOTICE = 'The following paths are ignored by one of your .gitignore files:';

/** Paths from the stderr lines `git add --ignore-errors` prints for files it skipped. */
function parseAddErrors(stderr: string): string[] {
  const paths: string[] = [];
  for (const line of stderr.split('\n')) {
    // error: open("secret.txt"): Permission denied
    const open = /^error: open\("(.*)"\): /.exec(line);
    // error: 'nested/' does not have a commit checked out
    const embedded = /^error: '(.*)\/?' does not have a commit checked out$/.exec(line);
    const path = open?.[1] ?? embedded?.[1]?.replace(/\/$/, '');
    if (path !== undefined) paths.push(path);
  }
  return paths;
}
