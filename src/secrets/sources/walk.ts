import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { appendAll } from '../../core/append-all.js';
import { lstatOrNull } from '../../core/lstat-or-null.js';
import { runProcess } from '../../core/process.js';
import { compareText } from '../../core/text-order.js';
import { WorkPool } from '../../core/work-pool.js';
import { type IndexFileSizes, indexFileSizes } from './index-sizes.js';
import { isInside, type LinkSkip, linkedFileOf } from './linked-file.js';
import { canOpenUnchecked } from './listed-file.js';

/** A file found on disk, with its size, how to read it, or why it will not be read. */
export interface DiskFile {
  absolute: string;
  /** Bytes when listed (of the target, for a symlink); 0 when unknown. */
  size: number;
  read(): Promise<Buffer | null>;
  skip?: LinkSkip;
  /**
   * Not looked at: a file git's index has as a regular file, its size the index's. What it is now, and its size, are
   * seen when it is opened (`openListedFile`); only a scan that reads it that way asks for such files.
   */
  unchecked?: true;
  /** The path git listed it by, relative to the repository root and `/`-separated; unset for a file git did not list. */
  gitPath?: string;
}

/**
 * Folder reads (and symbolic links' look-ups) in flight at once while listing: more than this only queues in libuv's
 * pool. The calls go through one `WorkPool`, so a tree of any size holds this many in flight and no promise per file.
 * Files themselves are looked at with a synchronous `lstat` as their folder is listed (see `gitListEntries`).
 */
export const LIST_CONCURRENCY = 64;

/** A path listed for scanning, with what its `lstat` said (no `Stats` object is kept per file). */
interface ListedPath {
  absolute: string;
  /** Bytes (of the link itself, for a symlink); 0 when `lstat` failed. */
  size: number;
  symlink: boolean;
  /** Not there any more, or no file or link (a tracked file deleted since): not to be scanned. */
  gone?: boolean;
  /** As git listed it (see `DiskFile.gitPath`). */
  gitPath?: string;
  /** See `DiskFile.unchecked`. */
  unchecked?: true;
}

/** Who watches a listing: `onListed` sees each regular file's size as it is found (the scan starts its workers). */
export interface ListingProbe {
  onListed?(size: number): void;
  /**
   * Take each tracked regular file's size from git's index and leave it unchecked (`DiskFile.unchecked`): for a reader
   * that opens each file as `openListedFile` does. Untracked files, links and anything else are looked at as before.
   */
  sizesFromIndex?: boolean;
  /** Tests only: sees each listing's pool once it is drained. */
  onPool?(pool: { readonly peakRunning: number }): void;
}

/**
 * Every file under the given files and folders. Inside a git work tree, folders are listed by git (tracked plus
 * untracked-not-ignored, so `.gitignore` is honoured exactly); elsewhere by a walk that reads `.gitignore` files.
 * A file named explicitly is always included, even when ignored.
 */
export async function listFilesUnder(
  repoRoot: string | null,
  paths: readonly string[],
  probe: ListingProbe = {},
): Promise<DiskFile[]> {
  const found: ListedPath[] = [];
  const realRoot = repoRoot ? await realpath(repoRoot).catch(() => repoRoot) : null;
  for (const path of paths) {
    const info = await lstat(path).catch(() => null);
    if (info === null) throw Object.assign(new Error(`${path}: no such file or directory`), { code: 'ENOENT', path });
    const folder = info.isDirectory()
      ? path
      : info.isSymbolicLink()
        ? await namedLinkFolder(path, repoRoot, realRoot)
        : null;
    if (folder === null) {
      found.push({ absolute: path, size: info.size, symlink: info.isSymbolicLink() });
      if (info.isFile()) probe.onListed?.(info.size);
    } else if (repoRoot && isInside(repoRoot, folder)) appendAll(found, await gitListEntries(repoRoot, folder, probe));
    else appendAll(found, await walkDirectory(folder, probe));
  }
  const files: Array<DiskFile | null> = [];
  // Only symbolic links need more file-system calls (where they lead); every other file is known already.
  const links = new WorkPool<{ slot: number; absolute: string }>(LIST_CONCURRENCY, async ({ slot, absolute }) => {
    files[slot] = await linkedFile(absolute, realRoot);
  });
  addUnique(files, found, links);
  await links.drained();
  probe.onPool?.(links);
  return files.filter((file): file is DiskFile => file !== null);
}

/**
 * Each path of `found` once, in order: a file as it is, a link as a slot its pool fills in. A function of its own, and
 * not async: V8 counts a loop's work toward the function it is in, and this loop over every file (8,854 in the npm
 * corpus) had `listFilesUnder`, an async function, compiled by TurboFan mid-loop, the largest single compile of a
 * `scan --all` (docs/benchmarks.md, session 28, "isolate2").
 */
function addUnique(
  files: Array<DiskFile | null>,
  found: readonly ListedPath[],
  links: WorkPool<{ slot: number; absolute: string }>,
): void {
  const seen = new Set<string>();
  for (const listed of found) {
    if (seen.has(listed.absolute)) continue;
    seen.add(listed.absolute);
    if (listed.symlink) {
      links.add({ slot: files.length, absolute: listed.absolute });
      files.push(null);
    } else files.push(plainFile(listed));
  }
}

/**
 * The folder to list for a named path that is a symbolic link to a folder (`tollgate scan vendor-link`), else null.
 * Named, it is what the person asked for: inside the repository it is listed by git as the folder it leads to (git
 * lists a link as a link); outside, walked through the link.
 */
async function namedLinkFolder(path: string, repoRoot: string | null, realRoot: string | null): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory()) return null;
  const target = await realpath(path).catch(() => null);
  if (target !== null && repoRoot && realRoot && isInside(realRoot, target))
    return join(repoRoot, relative(realRoot, target));
  return path;
}

function plainFile({ absolute, size, gitPath, unchecked }: ListedPath): DiskFile {
  const file: DiskFile = { absolute, size, read: () => readFile(absolute) };
  if (gitPath !== undefined) file.gitPath = gitPath;
  if (unchecked) file.unchecked = true;
  return file;
}

/**
 * How a listed symbolic link is read (see `linkedFileOf`): null for a link to a folder.
 */
async function linkedFile(absolute: string, realRoot: string | null): Promise<DiskFile | null> {
  const read = async () => readFile(absolute);
  const target = await realpath(absolute).catch(() => null);
  const inside = target !== null && (realRoot === null || isInside(realRoot, target));
  const linked = linkedFileOf(target, realRoot, inside ? await stat(absolute).catch(() => null) : null);
  if (linked === null) return null;
  if ('skip' in linked) return { absolute, size: 0, read, skip: linked.skip };
  return { absolute, size: linked.size, read };
}

/** `git ls-files` of tracked and untracked-but-not-ignored files under `dir`. */
export async function gitListFiles(repoRoot: string, dir: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  return (await gitListEntries(repoRoot, dir, {}, env)).map((entry) => entry.absolute);
}

/** The same, with each file's size and kind from `lstat`. */
async function gitListEntries(
  repoRoot: string,
  dir: string,
  probe: ListingProbe,
  env?: NodeJS.ProcessEnv,
): Promise<ListedPath[]> {
  const result = await runProcess(
    'git',
    [
      '-c',
      'core.quotePath=false',
      'ls-files',
      '-z',
      '--cached',
      '--others',
      '--exclude-standard',
      '--',
      relative(repoRoot, dir) || '.',
    ],
    { cwd: repoRoot, ...(env ? { env } : {}), timeoutMs: 120_000, maxOutputBytes: 256 * 1024 * 1024 },
  );
  if (result.exitCode !== 0) throw new Error(`git ls-files failed: ${result.stderr.trim().split('\n')[0]}`);
  const unique = [...new Set(result.stdout.split('\0').filter(Boolean))].sort();
  // Git lists normalized paths (no `.`, `..` or empty parts: it refuses them in the index), so on POSIX each is the
  // root's prefix plus the path: `join` normalized every path again, a tenth of the listing's CPU on 8,854 files.
  const prefix = sep === '/' ? join(repoRoot, '/') : null;
  // The index as git listed it, or newer: its sizes only order the files and start the workers (see `indexFileSizes`).
  const sizes =
    prefix !== null && probe.sizesFromIndex && canOpenUnchecked() ? indexFileSizes(repoRoot, unique.length) : null;
  // Not in this async function, for the reason `addUnique` gives.
  return gitListed(unique, repoRoot, prefix, sizes, probe);
}

/** The paths git listed, each with its size: from the index when it vouches for one, else from `lstat`. */
function gitListed(
  unique: readonly string[],
  repoRoot: string,
  prefix: string | null,
  sizes: IndexFileSizes | null,
  probe: ListingProbe,
): ListedPath[] {
  const listed: ListedPath[] = [];
  // One synchronous lstat per path git's index does not vouch for, as the scan then reads each file synchronously:
  // git has just walked these folders, so their inodes are cached and a call takes microseconds, where a call through
  // libuv's thread pool costs a hand-off and a wake-up each way (a quarter of the listing's CPU and most of the scan's
  // context switches).
  for (const path of unique) {
    const size = sizes?.sizeOf(path);
    if (size !== undefined) {
      listed.push({ absolute: prefix + path, size, symlink: false, gitPath: path, unchecked: true });
      probe.onListed?.(size);
      continue;
    }
    const entry: ListedPath =
      prefix === null
        ? { absolute: join(repoRoot, path), size: 0, symlink: false }
        : { absolute: prefix + path, size: 0, symlink: false, gitPath: path };
    const info = lstatOrNull(entry.absolute);
    // Deleted-but-tracked files are listed by --cached; they are not there to scan.
    if (info === null || !(info.isFile() || info.isSymbolicLink())) continue;
    recordStats(entry, info, probe);
    listed.push(entry);
  }
  return listed;
}

function recordStats(entry: ListedPath, info: Stats, probe: ListingProbe): void {
  entry.size = info.size;
  entry.symlink = info.isSymbolicLink();
  if (info.isFile()) probe.onListed?.(info.size);
}

type IgnoreRules = ReadonlyArray<{ base: string; matcher: Ignore }>;

/** A folder of the walk: its files and subfolders in name order, each subfolder filled in when it is read. */
interface WalkedFolder {
  dir: string;
  rules: IgnoreRules;
  entries: Array<ListedPath | WalkedFolder>;
}

/**
 * A walk outside git: skips `.git` and honours each folder's `.gitignore`. Folders are read through one bounded pool,
 * each file looked at as its folder is read; the result is in the order a depth-first walk in name order gives.
 */
async function walkDirectory(root: string, probe: ListingProbe): Promise<ListedPath[]> {
  const top: WalkedFolder = { dir: root, rules: [], entries: [] };
  const pool = new WorkPool<WalkedFolder>(LIST_CONCURRENCY, async (item) => {
    const [gitignore, entries] = await Promise.all([
      readFile(join(item.dir, '.gitignore'), 'utf8').catch(() => null),
      readdir(item.dir, { withFileTypes: true }).catch(() => []),
    ]);
    const rules =
      gitignore === null ? item.rules : [...item.rules, { base: item.dir, matcher: ignore().add(gitignore) }];
    for (const entry of entries.sort((a, b) => compareText(a.name, b.name))) {
      if (entry.name === '.git') continue;
      const absolute = join(item.dir, entry.name);
      const ignored = rules.some(({ base, matcher }) => {
        const rel = relative(base, absolute).split(sep).join('/');
        return matcher.ignores(entry.isDirectory() ? `${rel}/` : rel);
      });
      if (ignored) continue;
      if (entry.isDirectory()) {
        const folder: WalkedFolder = { dir: absolute, rules, entries: [] };
        item.entries.push(folder);
        pool.add(folder);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        const file: ListedPath = { absolute, size: 0, symlink: false };
        // Synchronously, as for git's list: the folder was just read, so the call takes microseconds.
        const info = lstatOrNull(absolute);
        if (info !== null) recordStats(file, info, probe);
        item.entries.push(file);
      }
    }
  });
  pool.add(top);
  await pool.drained();
  probe.onPool?.(pool);
  return flatten(top);
}

/** The files of a walked folder tree, depth first (no recursion: a tree may be deeper than the stack). */
function flatten(top: WalkedFolder): ListedPath[] {
  const files: ListedPath[] = [];
  const stack: Array<{ folder: WalkedFolder; next: number }> = [{ folder: top, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const entry = frame.folder.entries[frame.next++];
    if (entry === undefined) stack.pop();
    else if ('entries' in entry) stack.push({ folder: entry, next: 0 });
    else files.push(entry);
  }
  return files;
}
