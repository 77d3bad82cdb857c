import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import pLimit from 'p-limit';
import { appendAll } from '../../core/append-all.js';
import { runProcess } from '../../core/process.js';
import { BROKEN_LINK } from '../scan-targets.js';

/** A file found on disk, with its size, how to read it, or why it will not be read. */
export interface DiskFile {
  absolute: string;
  /** Bytes when listed (of the target, for a symlink); 0 when unknown. */
  size: number;
  read(): Promise<Buffer | null>;
  skip?: { reason: 'symlink_outside_repo' | 'unreadable'; detail: string };
}

/**
 * File-system calls in flight at once while listing. Awaiting one `lstat` at a time left the disk and the thread pool
 * idle between calls (0.5 s of a 3.5 s scan of 9,000 files); more than this only queues in libuv's pool.
 */
const LIST_CONCURRENCY = 64;

/**
 * Every file under the given files and folders. Inside a git work tree, folders are listed by git (tracked plus
 * untracked-not-ignored, so `.gitignore` is honoured exactly); elsewhere by a walk that reads `.gitignore` files.
 * A file named explicitly is always included, even when ignored.
 */
export async function listFilesUnder(repoRoot: string | null, paths: readonly string[]): Promise<DiskFile[]> {
  const limit = pLimit(LIST_CONCURRENCY);
  const found: Array<{ absolute: string; info: Stats | null }> = [];
  for (const path of paths) {
    const info = await lstat(path).catch(() => null);
    if (info === null) throw Object.assign(new Error(`${path}: no such file or directory`), { code: 'ENOENT', path });
    if (!info.isDirectory()) found.push({ absolute: path, info });
    else if (repoRoot && isInside(repoRoot, path))
      appendAll(found, await gitListEntries(repoRoot, path, undefined, limit));
    else appendAll(found, await walkDirectory(path, limit));
  }
  const seen = new Set<string>();
  const unique = found.filter(({ absolute }) => !seen.has(absolute) && seen.add(absolute));
  const realRoot = repoRoot ? await realpath(repoRoot).catch(() => repoRoot) : null;
  const files = await Promise.all(unique.map(({ absolute, info }) => limit(() => diskFile(absolute, info, realRoot))));
  return files.filter((file): file is DiskFile => file !== null);
}

/**
 * How one listed path is read. Null for a symbolic link to a folder inside the repository: a link, not a file, whose
 * folder's files are listed under their own paths.
 */
async function diskFile(absolute: string, info: Stats | null, realRoot: string | null): Promise<DiskFile | null> {
  const read = async () => readFile(absolute);
  if (!info?.isSymbolicLink()) return { absolute, size: info?.size ?? 0, read };
  const target = await realpath(absolute).catch(() => null);
  if (target === null) return { absolute, size: 0, read, skip: { reason: 'unreadable', detail: BROKEN_LINK } };
  if (realRoot && !isInside(realRoot, target)) {
    return {
      absolute,
      size: 0,
      read,
      skip: { reason: 'symlink_outside_repo', detail: 'symbolic link to a file outside the repository' },
    };
  }
  const targetInfo = await stat(absolute).catch(() => null);
  if (targetInfo?.isDirectory()) return null;
  return { absolute, size: targetInfo?.size ?? 0, read };
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** `git ls-files` of tracked and untracked-but-not-ignored files under `dir`. */
export async function gitListFiles(repoRoot: string, dir: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
  return (await gitListEntries(repoRoot, dir, env, pLimit(LIST_CONCURRENCY))).map((entry) => entry.absolute);
}

/** The same, with each file's `lstat`. */
async function gitListEntries(
  repoRoot: string,
  dir: string,
  env: NodeJS.ProcessEnv | undefined,
  limit: ReturnType<typeof pLimit>,
): Promise<Array<{ absolute: string; info: Stats }>> {
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
  const listed = await Promise.all(
    unique.map((path) =>
      limit(async () => {
        const absolute = join(repoRoot, path);
        return { absolute, info: await lstat(absolute).catch(() => null) };
      }),
    ),
  );
  // Deleted-but-tracked files are listed by --cached; they are not there to scan.
  return listed.filter(
    (entry): entry is { absolute: string; info: Stats } =>
      entry.info !== null && (entry.info.isFile() || entry.info.isSymbolicLink()),
  );
}

/**
 * A walk outside git: skips `.git` and honours each folder's `.gitignore`. Sibling folders are read concurrently;
 * the result is in the order a depth-first walk in name order gives.
 */
async function walkDirectory(
  root: string,
  limit: ReturnType<typeof pLimit>,
): Promise<Array<{ absolute: string; info: Stats | null }>> {
  const visit = async (
    dir: string,
    rules: Array<{ base: string; matcher: Ignore }>,
  ): Promise<Array<{ absolute: string; info: Stats | null }>> => {
    const [gitignore, entries] = await limit(() =>
      Promise.all([
        readFile(join(dir, '.gitignore'), 'utf8').catch(() => null),
        readdir(dir, { withFileTypes: true }).catch(() => []),
      ]),
    );
    const scoped = gitignore === null ? rules : [...rules, { base: dir, matcher: ignore().add(gitignore) }];
    const parts = entries
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(async (entry) => {
        if (entry.name === '.git') return [];
        const absolute = join(dir, entry.name);
        const ignored = scoped.some(({ base, matcher }) => {
          const rel = relative(base, absolute).split(sep).join('/');
          return matcher.ignores(entry.isDirectory() ? `${rel}/` : rel);
        });
        if (ignored) return [];
        if (entry.isDirectory()) return visit(absolute, scoped);
        if (!entry.isFile() && !entry.isSymbolicLink()) return [];
        return [{ absolute, info: await limit(() => lstat(absolute).catch(() => null)) }];
      });
    return (await Promise.all(parts)).flat();
  };
  return visit(root, []);
}
