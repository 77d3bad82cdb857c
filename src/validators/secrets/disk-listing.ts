import { isAbsolute, relative, resolve, sep } from 'node:path';
import { TollgateError } from '../../core/errors.js';
import type { DiskTarget, ScanWorkers } from '../../secrets/parallel-scan.js';
import { type ListingProbe, listFilesUnder } from '../../secrets/sources/walk.js';

/**
 * The files a scan of the disk (`tollgate scan PATHS`, `--all`) lists, begun as soon as the repository is known: git's
 * listing then runs while the config is loaded and the rules are built, which need neither the list nor each other's
 * results. Each file's size goes to the workers as it is listed, so that a worker starts as soon as the bytes pay for
 * it, while the config loads (see `ScanWorkers`).
 */
export class DiskListing {
  readonly targets: Promise<DiskTarget[]>;

  constructor(
    repoRoot: string | null,
    cwd: string,
    paths: readonly string[],
    private readonly workers: ScanWorkers,
  ) {
    // The disk queue opens each file as `openListedFile` does, so git's index may stand in for an `lstat` per file.
    this.targets = pathTargets(repoRoot, cwd, paths, {
      onListed: (size) => workers.listed(size),
      sizesFromIndex: true,
    });
    // Awaited by `files`: a config that fails first is the error reported, as before the listing began this early.
    this.targets.catch(() => undefined);
  }

  /** The listed files; a listing that fails ends the workers. */
  async files(): Promise<DiskTarget[]> {
    return this.targets.catch((error: unknown) => {
      this.workers.stop();
      throw error;
    });
  }
}

async function pathTargets(
  repoRoot: string | null,
  cwd: string,
  paths: readonly string[],
  probe: ListingProbe,
): Promise<DiskTarget[]> {
  const absolute = paths.map((path) => (isAbsolute(path) ? path : resolve(cwd, path)));
  let files: Awaited<ReturnType<typeof listFilesUnder>>;
  try {
    files = await listFilesUnder(repoRoot, absolute, probe);
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT')
      throw new TollgateError('usage', `${relative(cwd, path ?? '') || path}: no such file or directory`);
    throw error;
  }
  const base = repoRoot ?? cwd;
  return files.map((file) => {
    // A path git listed is already relative to the root: `relative` on each of 8,854 files cost 80 ms of CPU.
    const rel = file.gitPath !== undefined && base === repoRoot ? file.gitPath : relative(base, file.absolute);
    const path = rel.startsWith('..') ? file.absolute : rel.split(sep).join('/');
    return {
      path,
      absolute: file.absolute,
      size: file.size,
      read: file.read,
      ...(file.skip ? { skip: file.skip } : {}),
      ...(file.unchecked ? { unchecked: file.unchecked } : {}),
    };
  });
}
