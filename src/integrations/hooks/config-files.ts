import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../../core/state/atomic-write.js';

/** Reading, backing up and writing the agents' config files. */

export async function readTextOrEmpty(path: string): Promise<{ text: string; existed: boolean }> {
  try {
    return { text: await readFile(path, 'utf8'), existed: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: '', existed: false };
    throw error;
  }
}

/** Writes atomically, keeping the file's mode (new files: 0644, like the agents' own). */
export async function writeConfigFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const mode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => 0o644,
  );
  await writeFileAtomic(path, text, { mode, label: path });
}

export async function removeConfigFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** The folders between `root` (exclusive) and `file` that do not exist yet, outermost first. */
export function missingDirs(file: string, root: string): string[] {
  const missing: string[] = [];
  for (let dir = dirname(file); dir.startsWith(root + sep) && !existsSync(dir); dir = dirname(dir))
    missing.unshift(dir);
  return missing;
}

/** Removes each folder that is empty now, innermost first; returns those removed. A folder with anything in it stays. */
export async function removeEmptyDirs(dirs: Iterable<string>): Promise<string[]> {
  const removed: string[] = [];
  for (const dir of [...new Set(dirs)].sort((a, b) => b.length - a.length)) {
    try {
      await rmdir(dir);
      removed.push(dir);
    } catch {
      // Not empty (the user or the agent keeps something there), or already gone: leave it.
    }
  }
  return removed;
}

/** Copies the file into `<tollgateHome>/backups/<stamp>/` before its first change; returns the copy's path. */
export async function backUp(path: string, backupsDir: string, stamp: string): Promise<string> {
  const dir = join(backupsDir, stamp);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const target = join(dir, `${basename(dirname(path))}-${basename(path)}`);
  await copyFile(path, target);
  return target;
}

/** How messages name a file: relative to the repository, or under `~`. */
export function displayPath(path: string, roots: { repoRoot: string | null; home: string }): string {
  if (roots.repoRoot && !relative(roots.repoRoot, path).startsWith('..')) return relative(roots.repoRoot, path);
  const fromHome = relative(roots.home, path);
  return fromHome.startsWith('..') ? path : `~/${fromHome}`;
}
