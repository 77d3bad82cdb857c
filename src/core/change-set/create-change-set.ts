import { compareText } from '../text-order.js';
import { takeHandedBase } from './base-handoff.js';
import { BlobReader } from './blob-reader.js';
import { ContentCache } from './content-cache.js';
import type { DescribedEntry } from './describe-diff.js';
import { type EarlyStage, sameWorkTreeIndex } from './early-stage.js';
import { FileStats } from './file-stats.js';
import { fingerprintOf } from './fingerprint.js';
import { createGitRunner, type GitRunner } from './git.js';
import { historyGap } from './history-gap.js';
import { createIgnoreFilter } from './ignore-filter.js';
import { inspectFiles } from './inspect-files.js';
import { listChangedPaths, listChanges } from './list-changes.js';
import { guessRepo, locateRepo, type RepoLocation, sameLocation } from './locate-repo.js';
import { pinBase } from './pin-base.js';
import { MODE_GITLINK, MODE_REGULAR, MODE_TYPE_MASK, type RawEntry } from './raw-diff.js';
import { filterDrivers, keepRawBytes } from './raw-filters.js';
import { resolveBase } from './resolve-base.js';
import { reviewDiff } from './review-diff.js';
import { discardEarlyStage, type StagedIndex, withTempIndex } from './temp-index.js';
import type { ChangedFile, ChangeSetBase, ChangeSetOptions, RepoChangeSet } from './types.js';

/** Default of `validation.maxFileSize`: larger files are listed in `skipped` and never read. */
export const DEFAULT_MAX_FILE_SIZE = 1_000_000;

/** The tree with no entries, the "base" of a repository without commits. */
const EMPTY_TREE: Record<string, string> = {
  sha1: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  sha256: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/**
 * Builds the change set: the working tree (committed since the base, staged, unstaged and untracked files, as one
 * view) against the base.
 *
 * How: a temporary index receives `git add -A` (temp-index.ts) with the index flags that hide edits cleared and the
 * bytes on disk in place of any clean filter's output (raw-filters.ts), then `git diff-index --cached` of the base against it
 * lists every change with its hunks (list-changes.ts). The user's index, stash and working tree are never written.
 */
export async function createChangeSet(options: ChangeSetOptions): Promise<RepoChangeSet> {
  const { cwd, ...settings } = options;
  return startChangeSet(cwd).finish(settings);
}

/** What `fingerprintTree` gives: the two things that say whether a tree is the one a change set was built from. */
export interface TreeFingerprint {
  fingerprint: string;
  head: string | null;
}

/**
 * The fingerprint and HEAD that `createChangeSet` would give for the tree as it is now, from the same snapshot (the
 * temporary index, the pinned base, the raw bytes under clean filters) but without the patch, the file look-ups or any
 * read of content: what the check after a run compares, at a fraction of the cost.
 *
 * `since`: a change set of this work tree built earlier in this process. The snapshot then starts from the index that
 * change set's `git add` wrote rather than from the user's, so git reads only the files whose stat data changed since
 * (the user's index, never updated by a snapshot, would have it read and hash every edited and untracked file again).
 * What git sees is the same: `git add --all` adds, updates and removes entries by what is on disk, and git's own stat
 * and racy-clean checks decide which files it reads, as they do for the user's index.
 */
export async function fingerprintTree(options: ChangeSetOptions, since?: RepoChangeSet): Promise<TreeFingerprint> {
  const { cwd, ...settings } = options;
  const earlier = since ? stagedIndexes.get(since) : undefined;
  const snapshot = await snapshotOf(cwd, Promise.resolve(settings), () => {}, new AbortController().signal, {
    pathsOnly: true,
    ...(earlier ? { startFrom: earlier.index, listed: earlier.paths } : {}),
    ...(since ? { base: since.base } : {}),
  });
  if (snapshot === CANCELLED) throw new Error('the change set was cancelled');
  return { fingerprint: fingerprintOfSnapshot(snapshot), head: snapshot.head };
}

/** What a change set needs besides where the repository is: known only once the config is read. */
export type ChangeSetSettings = Omit<ChangeSetOptions, 'cwd'>;

/**
 * A change set whose snapshot is under way: `git add` into the temporary index does not depend on the config, so a
 * run starts it while it reads the config and the policy, and gives the settings when it has them. Exactly one of
 * `finish` or `cancel` must be called; until then the snapshot waits (its temporary index is removed after either).
 */
export interface ChangeSetStart {
  /** Settles once git has read the working tree into the snapshot (or could not). */
  readonly staged: Promise<void>;
  finish(settings: ChangeSetSettings): Promise<RepoChangeSet>;
  /** Drops the snapshot (a run that failed before it needed it, or that must take a fresher one). */
  cancel(): void;
}

/**
 * `early`: the snapshot's `git add` begun before the CLI loaded (`startEarlyStage`), taken over when it was begun for
 * this work tree and its index, else stopped and dropped.
 */
export function startChangeSet(cwd: string, early?: EarlyStage): ChangeSetStart {
  let give: (settings: ChangeSetSettings | null) => void = () => {};
  const settings = new Promise<ChangeSetSettings | null>((resolve) => {
    give = resolve;
  });
  let onStaged: () => void = () => {};
  const staged = new Promise<void>((resolve) => {
    onStaged = resolve;
  });
  // Cancelling stops a `git add` still running: a bad config then fails at once, not after git read the whole tree.
  const abandon = new AbortController();
  const built = buildChangeSet(cwd, settings, onStaged, abandon.signal, early);
  built.catch(() => undefined).finally(onStaged); // a cancelled start is never awaited
  let given = false;
  const once = (value: ChangeSetSettings | null) => {
    if (given) throw new Error('startChangeSet: finish or cancel was already called');
    given = true;
    give(value);
  };
  return {
    staged,
    async finish(value) {
      once(value);
      const changeSet = await built;
      if (!changeSet) throw new Error('startChangeSet: the change set was cancelled');
      return changeSet;
    },
    cancel() {
      if (given) return;
      once(null);
      abandon.abort();
    },
  };
}

/** The change set once `settings` arrive; null when they never do (cancelled). */
async function buildChangeSet(
  cwd: string,
  settings: Promise<ChangeSetSettings | null>,
  onStaged: () => void,
  signal: AbortSignal,
  early: EarlyStage | undefined,
): Promise<RepoChangeSet | null> {
  const snapshot = await snapshotOf(cwd, settings, onStaged, signal, { pathsOnly: false, ...(early ? { early } : {}) });
  if (snapshot === CANCELLED) return null;
  const { repo, options } = snapshot;
  const ignorePatterns = [...(options.ignore ?? [])];
  const maxFileSize = options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
  const git = createGitRunner(repo.root);

  const isIgnored = createIgnoreFilter(ignorePatterns);
  const kept: DescribedEntry[] = [];
  const ignored: string[] = [];
  for (const entry of snapshot.entries) {
    if (isIgnored(entry.path)) ignored.push(entry.path);
    else kept.push(entry);
  }
  const stats = snapshot.stats ?? new FileStats(repo.root);
  const content = new ContentCache({
    root: repo.root,
    objectFormat: repo.objectFormat,
    blobs: new BlobReader(git),
    readEarly: (path) => stats.takeContent(path),
  });
  await stats.ready();
  const { files, skipped } = await inspectFiles({ root: repo.root, entries: kept, maxFileSize, content, stats });
  for (const path of snapshot.unreadable) {
    if (isIgnored(path)) ignored.push(path);
    else
      skipped.push({
        path,
        reason: 'unreadable',
        detail: 'git could not read it (permissions, or a nested repository without a commit)',
      });
  }
  files.sort(byPath);
  skipped.sort(byPath);
  ignored.sort(compareText);

  const fingerprint = fingerprintOfSnapshot(snapshot);
  const changeSet: RepoChangeSet = {
    root: repo.root,
    base: snapshot.base,
    files,
    ignored,
    skipped,
    fingerprint,
    // A path git could not read is a change nobody has seen, not the absence of one.
    isEmpty: files.length === 0 && !skipped.some((file) => file.reason === 'unreadable'),
    head: snapshot.head,
    hasCommits: snapshot.head !== null && snapshot.head !== snapshot.base.commit,
    ...(snapshot.gap !== null ? { historyGap: snapshot.gap } : {}),
    readText: (path) => content.readText(path),
    readBytes: (path) => content.readBytes(path),
    largeFile: (path) => content.largeFile(path),
    diff: async (paths) => {
      const pathspec = pathspecFor(files, paths);
      if (pathspec !== null && pathspec.length === 0) return '';
      return reviewDiff(git, { baseCommit: snapshot.base.commit, from: snapshot.from, entries: kept, pathspec });
    },
  };
  if (snapshot.staged) stagedIndexes.set(changeSet, { index: snapshot.staged, paths: snapshot.paths });
  return changeSet;
}

/**
 * The index each change set's snapshot staged and the changed paths git listed from it, for `fingerprintTree(…,
 * since)`; dropped with the change set.
 */
const stagedIndexes = new WeakMap<RepoChangeSet, { index: StagedIndex; paths: DescribedEntry[] }>();

/** How a snapshot is taken: `pathsOnly`, the changed paths without their patches (enough for the fingerprint). */
interface SnapshotMode {
  pathsOnly: boolean;
  /** An earlier snapshot's index to start from (`fingerprintTree`). */
  startFrom?: StagedIndex;
  /**
   * The changed paths git listed from `startFrom` against `base`: when `git add` leaves that index byte for byte as it
   * was (nothing on disk differs from what it staged), the same index against the same base lists the same paths, so
   * git is not asked again.
   */
  listed?: DescribedEntry[];
  /**
   * The base an earlier change set of this work tree used (`fingerprintTree(…, since)`): the tree is compared with the
   * very commit that change set was measured against, so no ref is resolved and no history pinned again. What the
   * comparison answers is whether the tree and HEAD are still the ones that change set describes; a base ref that
   * moved meanwhile changes nothing that was validated (the result is stored under that change set's fingerprint).
   */
  base?: ChangeSetBase;
  /** The `git add` begun before the CLI loaded (`startChangeSet`). */
  early?: EarlyStage;
}

const CANCELLED = Symbol('cancelled');

type Snapshot = Exclude<Awaited<ReturnType<typeof takeSnapshot>>, null | typeof CANCELLED>;

/**
 * The snapshot of the tree at `cwd`. `git add` is the longest step and needs the index's path: it starts from a guess
 * while `git rev-parse` confirms where the repository is; on the rare wrong guess, it starts again from the real
 * location.
 */
async function snapshotOf(
  cwd: string,
  settings: Promise<ChangeSetSettings | null>,
  onStaged: () => void,
  signal: AbortSignal,
  mode: SnapshotMode,
): Promise<Snapshot | typeof CANCELLED> {
  const located = locateRepo(cwd);
  located.catch(() => undefined); // awaited in every path below; this only keeps it from counting as unhandled
  const guess = guessRepo(cwd);
  const { early, ...rest } = mode;
  // Only for the guess it was begun for: should the guess be wrong, `withTempIndex` drops it with the guess.
  const earlyHere = early && guess && sameWorkTreeIndex(early.where, guess) ? early : undefined;
  if (early && !earlyHere) discardEarlyStage(early);
  const take = (where: Pick<RepoLocation, 'root' | 'indexPath'>, stage?: EarlyStage) =>
    takeSnapshot(where, located, settings, onStaged, signal, stage ? { ...rest, early: stage } : rest);
  const guessed = guess ? await take(guess, earlyHere) : null;
  const snapshot = guessed ?? (await take(await located));
  if (!snapshot) throw new Error('the repository location changed while the change set was built');
  return snapshot;
}

function fingerprintOfSnapshot(snapshot: Snapshot): string {
  return fingerprintOf({
    baseCommit: snapshot.base.commit,
    changes: snapshot.paths,
    ignore: [...(snapshot.options.ignore ?? [])],
  });
}

/**
 * Stages the working tree into a temporary index next to `where` and lists the changes against the base. Null when
 * `where` (a guess) turns out not to be the real location; CANCELLED when the settings never come.
 */
async function takeSnapshot(
  where: Pick<RepoLocation, 'root' | 'indexPath'>,
  located: Promise<RepoLocation>,
  settings: Promise<ChangeSetSettings | null>,
  onStaged: () => void,
  signal: AbortSignal,
  mode: SnapshotMode,
) {
  const { pathsOnly, startFrom, base: knownBase, listed: listedBefore, early } = mode;
  const git = createGitRunner(where.root);
  const objectFormat = located.then((repo) => repo.objectFormat);
  objectFormat.catch(() => undefined); // a failed `located` is reported where it is awaited; this copy may go unread
  const userIndex = {
    path: where.indexPath,
    objectFormat,
    signal,
    ...(startFrom ? { startFrom } : {}),
    ...(early ? { early } : {}),
  };
  return withTempIndex(git, userIndex, async (index) => {
    const repo = await located;
    if (!sameLocation(where, repo)) return null;
    let gitAdding = true;
    const added = () => {
      gitAdding = false;
      onStaged();
    };
    index.staged.then(added, added);
    // Resolving the base and reading the filter config do not need the index: they run while `git add` works.
    const filters = filterDrivers(git);
    filters.catch(() => undefined); // awaited below, unless cancelled
    const options = await settings;
    if (options === null) return CANCELLED;
    const ready = Promise.all([knownBase ?? baseAt(git, repo, options), index.staged, filters]);
    // At most once, at the first wait for git still at work: `git add` now, else the rename pass of the listing.
    let whileGitWorks = options.whileGitWorks;
    const overlap = () => {
      const work = whileGitWorks;
      whileGitWorks = undefined;
      work?.();
    };
    // Every git above is under way: what the caller does now takes no time from the snapshot while `git add` runs.
    if (gitAdding) overlap();
    const [base, unreadable, drivers] = await ready;
    // The fingerprint alone (`pathsOnly`) says nothing about history out of view: only a change set reports it.
    const gap = pathsOnly ? null : await historyGap(git, { ...repo, base });
    if (drivers !== null) {
      await keepRawBytes(git, { env: index.env, drivers, objectFormat: repo.objectFormat, baseCommit: base.commit });
    }
    const from = base.commit ?? emptyTreeOf(repo.objectFormat);
    if (pathsOnly) {
      const unchanged =
        listedBefore !== undefined &&
        knownBase !== undefined &&
        drivers === null &&
        startFrom !== undefined &&
        index.sameAs(startFrom);
      const paths = unchanged ? listedBefore : await listChangedPaths(git, { from, env: index.env });
      const none = { stats: null, staged: null };
      return { repo, base, head: repo.head, from, entries: paths, paths, unreadable, gap, ...none, options };
    }
    // The index as the diff below reads it: git leaves it as it is (`--cached`, no optional locks).
    const staged = index.keep();
    // The sizes and kinds of the changed files are looked up, and the regular files within the cap read, while git
    // writes their patches: the validators that read them next find them in memory.
    const stats = new FileStats(repo.root, undefined, { maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE });
    const onListed = (entries: readonly RawEntry[]) => {
      const onDisk = entries.filter((entry) => hasFile(entry.dstMode));
      stats.prefetch(
        onDisk.filter((entry) => isRegularFile(entry.dstMode)).map((entry) => entry.path),
        true,
      );
      stats.prefetch(onDisk.map((entry) => entry.path));
    };
    const listed = await listChanges(git, { from, env: index.env, onListed, whileGitWorks: overlap });
    return { repo, base, head: repo.head, from, ...listed, unreadable, gap, stats, staged, options };
  });
}

/**
 * The pinned base at the HEAD `locateRepo` read. Without a named base, the answer the policy reading just resolved at
 * this same HEAD is taken when there is one (base-handoff.ts).
 */
async function baseAt(git: GitRunner, repo: RepoLocation, options: ChangeSetSettings) {
  const { root, head } = repo;
  const trusted = options.trustedCommits;
  const named = options.base !== undefined || options.configBase !== undefined;
  // Taken (and so forgotten) either way: only the first change set after the policy reading may use it.
  const handed = takeHandedBase(root, head, trusted);
  if (handed && !named) return handed;
  const resolved = await resolveBase(git, { flag: options.base, config: options.configBase });
  return pinBase(git, { root, resolved, head, trusted });
}

/**
 * Whether the temporary index holds exactly the bytes it started from: `git add` rewrites it whenever it adds, updates
 * or removes an entry (or refreshes one's stat data), so equal bytes mean every entry is still the one staged before.
 */
/** All files (null), or the groups of paths asked for that are in the change set (a rename with its old path). */
function pathspecFor(files: readonly ChangedFile[], paths: readonly string[] | undefined): string[][] | null {
  if (paths === undefined) return files.length === 0 ? [] : null;
  const wanted = new Set(paths);
  return files
    .filter((file) => wanted.has(file.path) || (file.oldPath !== undefined && wanted.has(file.oldPath)))
    .map((file) => (file.oldPath !== undefined ? [file.path, file.oldPath] : [file.path]));
}

/** Whether the new version of a changed path is something on disk to look at (not a deletion, not a submodule). */
function hasFile(mode: number): boolean {
  return mode !== 0 && (mode & MODE_TYPE_MASK) !== MODE_GITLINK;
}

/** A regular file (not a symbolic link or a submodule): its content is its bytes on disk. */
function isRegularFile(mode: number): boolean {
  return (mode & MODE_TYPE_MASK) === MODE_REGULAR;
}

function emptyTreeOf(objectFormat: string): string {
  const tree = EMPTY_TREE[objectFormat];
  if (!tree) throw new Error(`unsupported git object format ${JSON.stringify(objectFormat)}`);
  return tree;
}

function byPath(a: { path: string }, b: { path: string }): number {
  return compareText(a.path, b.path);
}
