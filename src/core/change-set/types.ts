/**
 * The change set: what the agent changed relative to a base. Built once per run and shared read-only by every
 * validator. Only `src/core/change-set/` runs git to build it.
 */

export type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'type_changed' | 'submodule';

/** Inclusive, 1-based line range in the new version of the file. */
export interface LineRange {
  start: number;
  end: number;
}

export interface ChangedFile {
  /** Repo-relative POSIX path of the new version (for deletions, the old path). */
  path: string;
  /** Set for renames (and copies): the path at the base. */
  oldPath?: string;
  status: FileStatus;
  binary: boolean;
  /** Lines of the new version that the change added (every line for an added file). */
  addedLines: LineRange[];
  /**
   * Lines of the new version touched by the change: the added ranges plus, for pure deletions, the line the deletion
   * sits before (so a finding "on a deleted line" still has a place).
   */
  changedLines: LineRange[];
  /** Size in bytes of the new version (0 for a deletion). */
  size: number;
  /** For status `submodule`: the commit the pointer had at the base and has now (null where there is none). */
  submodule?: { from: string | null; to: string | null };
}

export type BaseSource = 'flag' | 'config' | 'upstream' | 'default-branch' | 'head' | 'empty' | 'pinned';

export interface ChangeSetBase {
  /** What was asked for or found (`origin/main`, `HEAD~2`), or null for an empty repository. */
  ref: string | null;
  /** The resolved commit, or null when the repository has no commits. */
  commit: string | null;
  source: BaseSource;
  /** The full ref the base was found on (`refs/remotes/origin/main`), when it came from one. */
  refName?: string;
  /**
   * Set when the resolved base was not trusted (pin-base.ts): `commit` is then the newest trusted commit under HEAD
   * (null: none, the whole history is the change), and this says what resolution had picked.
   */
  pinned?: {
    resolvedRef: string | null;
    resolvedCommit: string;
    unvalidated: number;
    /** The full ref resolution found (`refs/remotes/origin/main`): says whether a fetch can move the base. */
    resolvedRefName?: string;
  };
}

export type SkipReason = 'too_large' | 'binary' | 'unreadable' | 'symlink_outside_repo';

export interface SkippedFile {
  path: string;
  reason: SkipReason;
  /** Human text: "3.2 MB over the 1 MB cap (validation.maxFileSize)". */
  detail: string;
}

export interface RepoChangeSet {
  /** Absolute path of the work tree root. */
  readonly root: string;
  readonly base: ChangeSetBase;
  /** Changed files after `ignore` patterns, sorted by path. Includes binary and too-large files (see `skipped`). */
  readonly files: readonly ChangedFile[];
  /** Paths left out by the `ignore` patterns (reported as a warning, never silently dropped). */
  readonly ignored: readonly string[];
  /** Files whose content validators will not get (too large, binary, unreadable), with why. */
  readonly skipped: readonly SkippedFile[];
  /**
   * Stable fingerprint of the change: base commit + the content of every changed path (a tree id written through a
   * temporary index) + the ignore patterns. Equal fingerprints mean equal change sets.
   */
  readonly fingerprint: string;
  /**
   * True when no path differs from the base, unreadable ones included (an unreadable path is a change nobody has seen);
   * commits since the base may still exist: see `hasCommits`.
   */
  readonly isEmpty: boolean;
  /** HEAD's commit when the change set was built; null in a repository without commits. */
  readonly head: string | null;
  /** HEAD is not the base: commits since the base are part of the change (their history is scanned for secrets). */
  readonly hasCommits: boolean;
  /**
   * Set when some commits since the base may be out of git's view (a shallow clone cut above the base, borrowed
   * objects: history-gap.ts): one line saying why and what to run. Every pass of such a change is `incomplete`.
   */
  readonly historyGap?: string;
  /** Content of the new version, read once and cached; null for deletions, binaries and skipped files. */
  readText(path: string): Promise<string | null>;
  /**
   * Raw bytes of the new version, read once and cached; null for deletions, submodules, and files skipped as
   * too_large / unreadable / symlink_outside_repo (binary files do return their bytes).
   */
  readBytes(path: string): Promise<Buffer | null>;
  /**
   * The snapshot of a changed file skipped as too_large, which the secrets scanner streams from disk: its blob id (to
   * check the streamed bytes against) and a reader of the blob, whole. Null for other paths; absent in change sets
   * given as data.
   */
  largeFile?(path: string): LargeSnapshotFile | null;
  /** The unified diff (`git diff` format) of the change set, for reviewers; paths limited when given. */
  diff(paths?: readonly string[]): Promise<string>;
}

export interface LargeSnapshotFile {
  blobId: string;
  /** `sha1` or `sha256`. */
  objectFormat: string;
  /** The snapshot's bytes, whole (from disk when they still match, else from the object store). */
  readWhole(): Promise<Buffer | null>;
}

export interface ChangeSetOptions {
  /** Any directory inside the work tree. */
  cwd: string;
  /** `--base REV` */
  base?: string;
  /** `base:` from config, used when no flag is given. */
  configBase?: string;
  /** gitignore-syntax patterns from config `ignore`. */
  ignore?: readonly string[];
  /** Files larger than this are listed in `skipped` and their content is not read. */
  maxFileSize?: number;
  /** Commits tollgate trusts (validated HEADs, earlier bases): the base is pinned to them (pin-base.ts). */
  trustedCommits?: readonly string[];
  /**
   * Work the caller needs soon that needs no tree (building a scanner): called at most once, and only when the
   * snapshot has to wait for git anyway (`git add`, or the listing's rename pass), so the process does it while it
   * would otherwise only wait.
   */
  whileGitWorks?: () => void;
}

/**
 * Nothing at all to validate: no file differs from the base, HEAD is the base, and no history is out of view (a
 * shallow cut can hide the very commits that would make HEAD differ from the real base).
 */
export function isUnchanged(changeSet: Pick<RepoChangeSet, 'isEmpty' | 'hasCommits' | 'historyGap'>): boolean {
  return changeSet.isEmpty && !changeSet.hasCommits && changeSet.historyGap === undefined;
}
