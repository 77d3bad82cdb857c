import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { runProcess } from '../../core/process.js';

/** A file found on disk, with how to read it, or why it will not be read. */
export interface DiskFile {
  absolute: string;
  read(): Promise<Buffer | null>;
  skip?: { reason: 'symlink_outside_repo' | 'unreadable'; detail: string };
}

/**
 * Every file under the given files and folders. Inside a git work tree, folders are listed by git (tracked plus
 * untracked-not-ignored, so `.gitignore` is honoured exactly); elsewhere by a walk that reads `.gitignore` files.
 * A file named explicitly is always included, even when ignored.
 */
export async function listFilesUnder(repoRoot: string | null, paths: readonly string[]): Promise<DiskFile[]> {
  const out: DiskFile[] = [];
  const seen = new Set<string>();
  const add = async (absolute: string) => {
    if (seen.has(absolute)) return;
    seen.add(absolute);
    out.push(await diskFile(absolute, repoRoot));
  };
  for (const path of paths) {
    const info = await lstat(path).catch(() => null);
    if (info === null) throw Object.assign(new Error(`${path}: no such file or directory`), { code: 'ENOENT', path });
    if (!info.isDirectory()) {
      await add(path);
      continue;
    }
    const files = repoRoot && isInside(repoRoot, path) ? await gitListFiles(repoRoot, path) : await walkDirectory(path);
    for (const file of files) await add(file);
  }
  return out;
}

async function diskFile(absolute: string, root: string | null): Promise<DiskFile> {
  const read = async () => readFile(absolute);
  const info = await lstat(absolute).catch(() => null);
  if (info?.isSymbolicLink()) {
    const target = await realpath(absolute).catch(() => null);
    if (target === null) return { absolute, read, skip: { reason: 'unreadable', detail: 'broken symbolic link' } };
    const realRoot = root ? await realpath(root).catch(() => root) : null;
    if (realRoot && !isInside(realRoot, target)) {
      return {
        absolute,
        read,
        skip: { reason: 'symlink_outside_repo', detail: 'symbolic link to a file outside the repository' },
      };
    }
  }
  return { absolute, read };
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** `git ls-files` of tracked and untracked-but-not-ignored files under `dir`. */
export async function gitListFiles(repoRoot: string, dir: string, env?: NodeJS.ProcessEnv): Promise<string[]> {
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
  const unique = new Set(result.stdout.split('\0').filter(Boolean));
  const files: string[] = [];
  for (const path of unique) {
    const absolute = join(repoRoot, path);
    // Deleted-but-tracked files are listed by --cached; they are not there to scan.
    const info = await lstat(absolute).catch(() => null);
    if (info && (info.isFile() || info.isSymbolicLink())) files.push(absolute);
  }
  return files.sort();
}

/** A walk outside git: skips `.git` and honours each folder's `.gitignore`. */
async function walkDirectory(root: string): Promise<string[]> {
  const files: string[] = [];
  const visit = async (dir: string, rules: Array<{ base: string; matcher: Ignore }>) => {
    const gitignore = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => null);
    const scoped = gitignore === null ? rules : [...rules, { base: dir, matcher: ignore().add(gitignore) }];
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name === '.git') continue;
      const absolute = join(dir, entry.name);
      const ignored = scoped.some(({ base, matcher }) => {
        const rel = relative(base, absolute).split(sep).join('/');
        return matcher.ignores(entry.isDirectory() ? `${rel}/` : rel);
      });
      if (ignored) continue;
      if (entry.isDirectory()) await visit(absolute, scoped);
      else if (entry.isFile() || entry.isSymbolicLink()) files.push(absolute);
    }
  };
  await visit(root, []);
  return files;
}
