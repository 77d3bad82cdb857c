import {
  closeSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  type Stats,
  statSync,
} from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { indexMayHideEntries } from '../change-set/index-flags.js';
import { isSecondBlind } from '../change-set/second-blind-entries.js';
import { TOLLGATE_DIR } from '../state/tollgate-dir-name.js';
import { type IndexEntry, readIndexEntries } from './git-index-entries.js';
import type { RepoFiles } from './stamp-repo-files.js';

/**
 * The evidence git itself decides "nothing changed" from, recorded with the answer of a stamp's git (`git status`
 * and the filter check) so that a later stamp can take that answer without starting git: a shell and two gits cost a
 * fast path more CPU than Node's own start. It holds when every file and folder git's answer depends on has the
 * stat data it had when git answered (`watched`), every tracked file has the stat data the index holds for it (as
 * `git status` decides without reading it), none of those is racy (changed in the same tick as the index was
 * written), the refs are the same bytes, and the command runs with the same folder and environment. Any difference
 * or doubt: git is asked, as before.
 *
 * Why stat data is enough (docs/benchmarks.md, "Answering without git"): a write to a file, a chmod, a rename over
 * it or a `utimes` that puts its mtime back all set its ctime to the kernel's clock, which only root can set; a folder
 * whose entries change (a file created, deleted or renamed in it) gets a new mtime and ctime. So the index file,
 * every config and ignore file git reads, the git binary, and every folder git lists for untracked files are watched;
 * each tracked file is compared with its index entry, which the watched index file pins. Folders git does not enter
 * (ignored ones, and a folder whose own `.gitignore` ignores everything in it, such as `.tollgate/`) are not watched:
 * what decides that they are ignored is.
 *
 * Everything here is read with the file system's synchronous calls: it runs before Node loads the rest of a fast path.
 * The evidence is signed with the user's state key (the caller checks it before using the answer).
 */
export const EVIDENCE_FILE = 'stamp-evidence.json';
/**
 * Beyond these (index entries, other paths watched), git costs less than the evidence: docs/benchmarks.md, "Session
 * 19's cuts" (1,000 files 0.86-0.99x the CPU of asking git, 2,000 files 1.07x).
 */
export const MAX_TRACKED = 1000;
const MAX_WATCHED = 200;
/** An index file bigger than this holds more than MAX_TRACKED entries (each at least 62 bytes; paths are short). */
const MAX_INDEX_BYTES = MAX_TRACKED * 256;
/** As the stamp's racy rule (tree-stamp.ts): a file changed this recently may change again within its timestamp. */
const RACY_MS = 2000;
/** More than a tick of the kernel's coarse clock, which stamps file times (4 ms at 250 Hz, 10 at 100 Hz). */
const TICK_MS = 100;
/** How far before the index file's mtime a tracked file's last change must be for its entry to decide (see below). */
const RACY_GAP_MS = 1;
/** How close a time in milliseconds (a double) must be to git's nanoseconds. */
const MATCH_NS = 1000;

export interface StampEvidence {
  /** The folder and environment git ran in (`envKeyOf`). */
  env: string;
  /** The refs as `repoFilesOf` read them. */
  refs: string;
  /** [path, `statKey`] of every file and folder git's answer depended on, the index file first. */
  watched: Array<[string, string]>;
  /**
   * Every tracked file whose stat data was its index entry's (not racy) when git answered, with that stat data
   * (`trackedStat`): the same stat data now says git would decide the same without reading it, since the index that
   * holds the entry is pinned by its own stat data (watched first). Compared as numbers, without reading the index.
   */
  tracked: TrackedStat[];
  status: string;
  filters: string;
  filtersCode: number;
}

/** Where git was asked, and what it said, of the places that decide which files it reads (full path only). */
export interface GitPlaces {
  /** The system config file's path (it is compiled into git). */
  systemConfig: string;
  /** `core.excludesFile`, when set. */
  excludesFile: string | null;
  /** `core.attributesFile`, when set. */
  attributesFile: string | null;
  /** Untracked folders git ignores whole, as `git ls-files --others --ignored --directory` lists them ("dir/"). */
  ignoredDirs: ReadonlySet<string>;
}

/** The folder and every variable that moves git's files or changes which git runs. */
export function envKeyOf(cwd: string, env: NodeJS.ProcessEnv): string {
  const kept = Object.keys(env)
    .filter((key) => key.startsWith('GIT_') || key === 'HOME' || key === 'XDG_CONFIG_HOME' || key === 'PATH')
    .sort()
    .map((key) => [key, env[key]]);
  return JSON.stringify([cwd, kept]);
}

/**
 * A path's stat data as one string ('-' when it does not exist); a symlink's also has its target's, so a link that
 * points elsewhere, or a target that changed, is seen. Throws on any other error.
 */
export function statKey(path: string): string {
  const info = lstatSync(path, NO_THROW);
  if (!info) return '-';
  const key = keyOf(info);
  if (!info.isSymbolicLink()) return key;
  const target = statSync(path, NO_THROW);
  return target ? `${key}>${keyOf(target)}` : `${key}>-`;
}

const NO_THROW = { throwIfNoEntry: false } as const;

/** A tracked file's path and its lstat data: mode, dev, ino, size, mtimeMs, ctimeMs, uid, gid. */
export type TrackedStat = [string, number, number, number, number, number, number, number, number];

function trackedStat(path: string, info: Stats): TrackedStat {
  return [path, info.mode, info.dev, info.ino, info.size, info.mtimeMs, info.ctimeMs, info.uid, info.gid];
}

/** True when `path` exists with the stat data `tracked` recorded (JSON keeps each double exactly). */
function trackedHolds(tracked: TrackedStat): boolean {
  const info = lstatSync(tracked[0], NO_THROW);
  return (
    info !== undefined &&
    info.ctimeMs === tracked[6] &&
    info.mtimeMs === tracked[5] &&
    info.ino === tracked[3] &&
    info.size === tracked[4] &&
    info.mode === tracked[1] &&
    info.dev === tracked[2] &&
    info.uid === tracked[7] &&
    info.gid === tracked[8]
  );
}

/**
 * Stat data as one string. Plain (not bigint) stat data, a fraction of the cost: its times are doubles of
 * milliseconds, exact to a quarter of a microsecond, and any change after the evidence was recorded moves a ctime
 * by far more (the record spans at least git's own run).
 */
function keyOf(info: Stats): string {
  return `${info.mode}:${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.uid}:${info.gid}`;
}

/**
 * True when the evidence holds for the repository `files` describes, seen from `cwd` with `env` (see above). The
 * index is not read: it is watched, and every entry was recorded either in `tracked` (its file's stat data was the
 * entry's) or, for a file git reads, in `watched`.
 */
export function evidenceHolds(evidence: StampEvidence, files: RepoFiles, cwd: string, env: NodeJS.ProcessEnv): boolean {
  try {
    if (evidence.env !== envKeyOf(cwd, env) || evidence.refs !== files.refs) return false;
    if (evidence.watched[0]?.[0] !== join(files.top, '.git', 'index')) return false;
    for (const [path, key] of evidence.watched) if (statKey(path) !== key) return false;
    for (const tracked of evidence.tracked) if (!trackedHolds(tracked)) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * The index's entries when its file still has the stat data `indexKey`; the stat data of the files whose stat data is
 * their entry's (`matched`), and the paths of those git would read to decide (`read`): the file's stat data is not
 * the entry's, or it is racy (its mtime or ctime at or after the index file's mtime, git's racy-clean rule).
 * Undefined for an index that is not pinned or not understood, or that holds an entry git's stat check is blind to.
 */
export function indexEvidence(
  top: string,
  indexPath: string,
  indexKey: string,
): { entries: IndexEntry[]; matched: TrackedStat[]; read: string[] } | undefined {
  const index = readPinned(indexPath, indexKey);
  // The count first: beyond MAX_TRACKED, git answers for less than the entries cost to read and compare.
  if (!index || index.bytes.length < 12 || index.bytes.readUInt32BE(8) > MAX_TRACKED) return undefined;
  const entries = readIndexEntries(index.bytes);
  // An index that hides entries from status (index-flags.ts) is never recorded: so the stamp need not read it again.
  if (!entries || entries.length > MAX_TRACKED || indexMayHideEntries(index.bytes, 'sha1', TOLLGATE_DIR)) return;
  const matched: TrackedStat[] = [];
  const read: string[] = [];
  for (const entry of entries) {
    const path = join(top, entry.path);
    const info = lstatSync(path, NO_THROW);
    if (info && isSecondBlind(info, entry.stat)) return undefined;
    if (info && statMatches(info, entry.stat, index.mtimeMs)) matched.push(trackedStat(path, info));
    else read.push(path);
  }
  return { entries, matched, read };
}

/** A file's bytes, read through one descriptor whose stat data is `key` before and after the read. */
function readPinned(path: string, key: string): { bytes: Buffer; mtimeMs: number } | undefined {
  const fd = openSync(path, 'r');
  try {
    const before = fstatSync(fd);
    if (before.size > MAX_INDEX_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(before.size);
    let read = 0;
    for (let count = 1; read < bytes.length && count > 0; read += count) {
      count = readSync(fd, bytes, read, bytes.length - read, read);
    }
    if (read !== bytes.length || keyOf(before) !== key || keyOf(fstatSync(fd)) !== key) return undefined;
    return { bytes, mtimeMs: before.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * True when a file's stat data `info` is what an index entry holds for it (git's fields, each as git truncates it to
 * 32 bits; the mode as git records it) and its mtime and ctime are at least RACY_GAP_MS before the index file's mtime
 * (git's racy-clean rule, under which git itself would read the file, with a margin). Plain (not bigint) stat data, a
 * quarter of the cost: its times are doubles of milliseconds, exact to well under a microsecond, so nanoseconds are
 * compared within MATCH_NS. That is sound because of the margin: a change after the index was written sets the
 * file's ctime to at least the index file's mtime, at least RACY_GAP_MS past the ctime the entry holds.
 */
function statMatches(info: Stats, stat: number[], indexMtimeMs: number): boolean {
  if (info.ctimeMs < 0 || Math.max(info.mtimeMs, info.ctimeMs) > indexMtimeMs - RACY_GAP_MS) return false;
  const mode = info.isSymbolicLink() ? 0o120000 : info.isFile() ? (info.mode & 0o100 ? 0o100755 : 0o100644) : -1;
  return (
    timeMatches(info.ctimeMs, stat[0]!, stat[1]!) &&
    timeMatches(info.mtimeMs, stat[2]!, stat[3]!) &&
    info.dev >>> 0 === stat[4] &&
    info.ino >>> 0 === stat[5] &&
    mode === stat[6] &&
    info.uid >>> 0 === stat[7] &&
    info.gid >>> 0 === stat[8] &&
    info.size >>> 0 === stat[9]
  );
}

/** A time in milliseconds against git's seconds and nanoseconds (the seconds truncated to 32 bits). */
function timeMatches(ms: number, seconds: number, nanoseconds: number): boolean {
  const whole = Math.floor(ms / 1000);
  return whole >>> 0 === seconds && Math.abs((ms - whole * 1000) * 1e6 - nanoseconds) < MATCH_NS;
}

/**
 * The watched paths of the repository `files` describes, with their stat data now, and the tracked files whose stat
 * data is their index entry's (`indexEvidence`); undefined when the evidence cannot vouch (a tracked file git reads
 * that changed within RACY_MS of `startedMs`, when the record began; a symlinked `.gitignore`, a config file that
 * includes another, a relative PATH entry, too many folders).
 */
export function collectWatched(
  files: RepoFiles,
  env: NodeJS.ProcessEnv,
  places: GitPlaces,
  startedMs: number,
): Pick<StampEvidence, 'watched' | 'tracked'> | undefined {
  const gitDir = join(files.top, '.git');
  const indexPath = join(gitDir, 'index');
  const indexKey = statKey(indexPath);
  const index = indexKey === '-' ? undefined : indexEvidence(files.top, indexPath, indexKey);
  // A file git reads is watched by its own stat data, which must be older than the record (so no write after it
  // can share its timestamps).
  if (index?.read.every((path) => settledBefore(path, startedMs - RACY_MS)) !== true) return undefined;
  const configs = configFiles(gitDir, env, places.systemConfig);
  if (!configs || configs.some(includesOther)) return undefined;
  const binaries = gitBinaries(env);
  if (!binaries) return undefined;
  const excludes = globalExcludes(env, places.excludesFile);
  // A file git reads is compared through its attributes (line endings, working-tree encoding): their files too.
  const attributes = index.read.length === 0 ? [] : attributeFiles(gitDir, env, places);
  if (!excludes || !attributes) return undefined;
  const ignores = [join(gitDir, 'info', 'exclude'), ...excludes, ...attributes];
  const folders = watchedFolders(files.top, index.entries, places.ignoredDirs);
  if (!folders) return undefined;
  const paths = [indexPath, ...configs, ...binaries, ...ignores, join(gitDir, 'shallow'), ...folders, ...index.read];
  // A watched path changed within a tick of the file clock before the record could change again with the same
  // times while git looks: each must be older than that.
  if (!paths.every((path) => settledBefore(path, startedMs - TICK_MS))) return undefined;
  return { watched: paths.map((path): [string, string] => [path, statKey(path)]), tracked: index.matched };
}

/** True when `path` is absent or was last changed before `beforeMs`. */
function settledBefore(path: string, beforeMs: number): boolean {
  const info = lstatSync(path, NO_THROW);
  return !info || Math.max(info.mtimeMs, info.ctimeMs) < beforeMs;
}

/** Every config file git reads here: the system one, the global ones, the repository's. */
function configFiles(gitDir: string, env: NodeJS.ProcessEnv, systemConfig: string): string[] | undefined {
  const home = env.HOME;
  if (!home || !isAbsolute(home) || !isAbsolute(systemConfig)) return undefined;
  const global = env.GIT_CONFIG_GLOBAL
    ? [env.GIT_CONFIG_GLOBAL]
    : [join(home, '.gitconfig'), join(xdgConfig(env), 'git', 'config')];
  if (!global.every((path) => isAbsolute(path))) return undefined;
  return [systemConfig, ...global, join(gitDir, 'config')];
}

/** True when a config file holds an include (the included file would go unwatched) or cannot be read. */
function includesOther(path: string): boolean {
  try {
    return /include/i.test(readFileSync(path, 'latin1'));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** The global excludes files git may read: the configured one and the default one; undefined for a relative one. */
function globalExcludes(env: NodeJS.ProcessEnv, configured: string | null): string[] | undefined {
  const paths = [join(xdgConfig(env), 'git', 'ignore')];
  if (configured !== null && !isAbsolute(configured)) return undefined;
  if (configured) paths.push(configured);
  return paths;
}

/**
 * The attributes files outside the tree git may read: the repository's, the global ones (configured and default)
 * and the system one, beside the system config file (`$(prefix)/etc/gitattributes`); undefined when that place is not
 * known (the system config moved by a variable, system attributes turned off or on by one, a relative path).
 */
function attributeFiles(gitDir: string, env: NodeJS.ProcessEnv, places: GitPlaces): string[] | undefined {
  const configured = places.attributesFile;
  if (env.GIT_CONFIG_SYSTEM !== undefined || env.GIT_ATTR_NOSYSTEM !== undefined) return undefined;
  if (!places.systemConfig.endsWith('/gitconfig') || (configured !== null && !isAbsolute(configured))) return undefined;
  const system = `${places.systemConfig.slice(0, -'gitconfig'.length)}gitattributes`;
  const paths = [join(gitDir, 'info', 'attributes'), join(xdgConfig(env), 'git', 'attributes'), system];
  if (configured) paths.push(configured);
  return paths;
}

function xdgConfig(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(env.HOME!, '.config');
}

/** `git` in each PATH folder up to the first that holds it; undefined for a relative PATH entry before that. */
function gitBinaries(env: NodeJS.ProcessEnv): string[] | undefined {
  const paths: string[] = [];
  for (const dir of (env.PATH ?? '').split(':')) {
    if (!isAbsolute(dir)) return undefined;
    const path = join(dir, 'git');
    paths.push(path);
    const info = statSync(path, NO_THROW);
    if (info?.isFile() && (info.mode & 0o111) !== 0) return paths;
  }
  return undefined;
}

/**
 * Every folder git lists for untracked files, and every `.gitignore` and `.gitattributes` in them: from the root down, all but `.git`,
 * folders git ignores whole (`ignoredDirs`), and folders not tracked whose own `.gitignore` is `*` (everything in them
 * ignored; that file is watched instead). Undefined beyond MAX_WATCHED paths, or at a symlinked `.gitignore` or
 * `.gitattributes`.
 */
function watchedFolders(top: string, entries: IndexEntry[], ignoredDirs: ReadonlySet<string>): string[] | undefined {
  const tracked = new Set<string>();
  for (const { path } of entries) {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const dir = path.slice(0, slash);
      if (tracked.has(dir)) break;
      tracked.add(dir);
    }
  }
  const watched: string[] = [];
  const pending = [''];
  let trackedSeen = 0;
  for (let relative = pending.pop(); relative !== undefined; relative = pending.pop()) {
    const dir = relative === '' ? top : join(top, relative);
    if (tracked.has(relative)) trackedSeen += 1;
    watched.push(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git') continue;
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.name === '.gitignore' || entry.name === '.gitattributes') {
        if (!entry.isFile()) return undefined;
        watched.push(join(dir, entry.name));
      }
      if (!entry.isDirectory() || (!tracked.has(path) && ignoredDirs.has(`${path}/`))) continue;
      if (!tracked.has(path) && ignoresAll(join(top, path, '.gitignore'))) watched.push(join(top, path, '.gitignore'));
      else pending.push(path);
    }
    if (watched.length > MAX_WATCHED) return undefined;
  }
  // A tracked folder that is not a folder on disk (a symlink, a file): git reads that; the evidence does not.
  return trackedSeen === tracked.size ? watched : undefined;
}

/** True when `path` is a file whose patterns are exactly `*`: everything in its folder is ignored. */
function ignoresAll(path: string): boolean {
  const info = lstatSync(path, NO_THROW);
  return info?.isFile() === true && /^\*\r?\n?$/.test(readFileSync(path, 'latin1'));
}

/** True when the index at `indexPath` holds at most MAX_TRACKED entries: evidence is worth recording. */
export function fewEnoughTracked(indexPath: string): boolean {
  const header = Buffer.alloc(12);
  const fd = openSync(indexPath, 'r');
  try {
    return readSync(fd, header, 0, 12, 0) === 12 && header.readUInt32BE(8) <= MAX_TRACKED;
  } finally {
    closeSync(fd);
  }
}

/** The saved evidence's path under a work tree. */
export function evidencePath(top: string): string {
  return join(top, TOLLGATE_DIR, EVIDENCE_FILE);
}
