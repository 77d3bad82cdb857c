import { isAbsolute, relative, resolve, sep } from 'node:path';
import { TollgateError } from '../../core/errors.js';
import type { DiskTarget, ScanWorkers } from '../../secrets/parallel-scan.js';
import { type ListingProbe, listFilesUnder } from '../../secrets/sources/walk.js';

/**
 * The files a scan of the disk (`tollgate scan PATHS`, `--all`) lists, begun as soon as the repository is known: git's
 * listing then runs while the config is loaded and the rules are built, which need neither the list nor each other's
 * results. The workers need the config, so they are attached once it is loaded and told the bytes listed until then;
 * the `lstat` of each file git listed waits for them (see `ListingProbe.statsAfter`).
 */
export class DiskListing {
  readonly targets: Promise<DiskTarget[]>;
  private listedBytes = 0;
  private workers: ScanWorkers | null = null;
  private attached: () => void = () => undefined;

  constructor(repoRoot: string | null, cwd: string, paths: readonly string[]) {
    const statsAfter = new Promise<void>((resolve) => {
      this.attached = resolve;
    });
    // The disk queue opens each file as `openListedFile` does, so git's index may stand in for an `lstat` per file.
    this.targets = pathTargets(repoRoot, cwd, paths, {
      onListed: (size) => this.listed(size),
      statsAfter,
      sizesFromIndex: true,
    });
    // Awaited by `files`: a config that fails first is the error reported, as before the listing began this early.
    this.targets.catch(() => undefined);
  }

  /** The listed files, the workers started as the bytes listed pay for them (before and after this call). */
  async files(workers: ScanWorkers): Promise<DiskTarget[]> {
    this.workers = workers;
    workers.listed(this.listedBytes);
    this.attached();
    return this.targets.catch((error: unknown) => {
      workers.stop();
      throw error;
    });
  }

  private listed(size: number): void {
    if (this.workers === null) this.listedBytes += size;
    else this.workers.listed(size);
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
