import { readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { maxOf } from '../append-all.js';
import type { ContentCache } from './content-cache.js';
import type { DescribedEntry } from './describe-diff.js';
import { FileStats } from './file-stats.js';
import { mergeRanges } from './patch-hunks.js';
import { MODE_GITLINK, MODE_TYPE_MASK } from './raw-diff.js';
import type { ChangedFile, LineRange, SkippedFile } from './types.js';

export interface InspectFilesOptions {
  root: string;
  entries: readonly DescribedEntry[];
  maxFileSize: number;
  /** Registered here with how each path's content may be read. */
  content: ContentCache;
  /** The paths' stats, looked up early (see file-stats.ts); by default each is looked up here. */
  stats?: FileStats;
}

export interface InspectedFiles {
  files: ChangedFile[];
  skipped: SkippedFile[];
}

/**
 * Adds what only the file system knows (size, where a symlink points), decides which files validators will not get
 * the content of, and places deletion-only hunks on a line that exists. Reads content only for files whose last hunk
 * is a deletion (to learn the line count); everything else stays lazy.
 */
export async function inspectFiles(options: InspectFilesOptions): Promise<InspectedFiles> {
  const { content } = options;
  const fileStats = options.stats ?? new FileStats(options.root);
  const files: ChangedFile[] = [];
  const skipped: SkippedFile[] = [];
  const symlinks: Array<{ file: ChangedFile; id: string }> = [];
  const later: Array<Promise<void>> = [];
  for (const entry of options.entries) {
    const file: ChangedFile = {
      path: entry.path,
      ...(entry.oldPath !== undefined ? { oldPath: entry.oldPath } : {}),
      status: entry.status,
      binary: entry.binary,
      addedLines: entry.added,
      changedLines: entry.added,
      size: 0,
    };
    files.push(file);
    if (entry.status === 'submodule') file.submodule = submodulePointers(entry);
    if (entry.kind === 'deleted' || entry.kind === 'submodule') {
      file.changedLines = [];
      content.register(entry.path, 'none');
      continue;
    }
    const stats = fileStats.of(entry.path);
    if (stats === null) {
      // Not on disk: a sparse checkout's skip-worktree entry, or removed since git staged it. Either way the snapshot
      // holds its content, which is what validators must see.
      later.push(fromObjectStore(file, entry, options, skipped));
      continue;
    }
    file.size = stats.size;
    if (entry.kind === 'symlink') symlinks.push({ file, id: entry.id });
    else registerContent(file, entry, options, skipped, later);
  }
  if (symlinks.length > 0) {
    const realRoot = await realpath(options.root).catch(() => options.root);
    for (const { file, id } of symlinks) later.push(checkSymlink(file, id, options, realRoot, skipped));
  }
  await Promise.all(later);
  return { files, skipped };
}

/** How validators read a file of `file.size` bytes: too large (skipped), binary (bytes only) or text. */
function registerContent(
  file: ChangedFile,
  entry: DescribedEntry,
  options: InspectFilesOptions,
  skipped: SkippedFile[],
  later: Array<Promise<void>>,
): void {
  const { content } = options;
  if (file.size > options.maxFileSize) {
    content.register(entry.path, 'large', entry.id);
    skipped.push({
      path: entry.path,
      reason: 'too_large',
      detail: `${formatBytes(file.size)} over the ${formatBytes(options.maxFileSize)} cap (validation.maxFileSize)`,
    });
  } else if (entry.binary) {
    content.register(entry.path, 'binary', entry.id);
    skipped.push({ path: entry.path, reason: 'binary', detail: 'binary file: validators get its bytes but no text' });
  } else {
    content.register(entry.path, 'file', entry.id);
    if (entry.deletedAfter.length > 0) {
      later.push(
        changedLinesOf(entry, () => content.readBytes(entry.path)).then((lines) => {
          file.changedLines = lines;
        }),
      );
    }
  }
}

/**
 * A changed file that is not on disk takes its size and content from its blob in the snapshot; a symlink's content is
 * its target text there too (never followed), unless it leads out of the repository, as on disk. A blob the object
 * store lacks cannot be read: it is listed as unreadable.
 */
async function fromObjectStore(
  file: ChangedFile,
  entry: DescribedEntry,
  options: InspectFilesOptions,
  skipped: SkippedFile[],
): Promise<void> {
  if (entry.kind === 'symlink') {
    const target = await options.content.readBlob(entry.id);
    if (target !== null) {
      file.size = target.length;
      const realRoot = await realpath(options.root).catch(() => options.root);
      await checkSymlink(file, entry.id, options, realRoot, skipped, target.toString('utf8'));
      return;
    }
  }
  const size = entry.kind === 'symlink' ? null : await options.content.blobSize(entry.id);
  if (size === null) {
    options.content.register(entry.path, 'none');
    skipped.push({
      path: entry.path,
      reason: 'unreadable',
      detail: 'not on disk, and its content could not be read from the snapshot',
    });
    return;
  }
  file.size = size;
  const later: Array<Promise<void>> = [];
  registerContent(file, entry, options, skipped, later);
  await Promise.all(later);
}

/** The commits a submodule pointer moved between; a side that is no gitlink (added, removed, type change) is null. */
function submodulePointers(entry: DescribedEntry): { from: string | null; to: string | null } {
  const gitlink = (mode: number) => (mode & MODE_TYPE_MASK) === MODE_GITLINK;
  return {
    from: gitlink(entry.srcMode) ? entry.srcId : null,
    to: gitlink(entry.mode) ? entry.id : null,
  };
}

/**
 * A symlink's content is its target text; one that leads out of the repository is not read at all. `stored`: the
 * target as the snapshot's blob holds it, for a link that is not on disk.
 */
async function checkSymlink(
  file: ChangedFile,
  id: string,
  options: InspectFilesOptions,
  realRoot: string,
  skipped: SkippedFile[],
  stored?: string,
): Promise<void> {
  const absolute = join(options.root, file.path);
  const target = stored ?? (await readlink(absolute).catch(() => null));
  if (target !== null && !(await pointsOutside(absolute, target, options.root, realRoot))) {
    options.content.register(file.path, 'symlink', id);
    return;
  }
  options.content.register(file.path, 'none');
  skipped.push({
    path: file.path,
    reason: 'symlink_outside_repo',
    detail: `symlink to ${JSON.stringify(target ?? '?')} points outside the repository; its target is not read`,
  });
}

/**
 * Added ranges plus, for each deletion-only hunk, the line the deletion sits before. A deletion at the end of the file
 * sits before no line, so it takes the last line (and line 1 of a file left empty).
 */
async function changedLinesOf(entry: DescribedEntry, read: () => Promise<Buffer | null>): Promise<LineRange[]> {
  const lastAdded = entry.added[entry.added.length - 1]?.end ?? 0;
  const lastDeletion = maxOf(entry.deletedAfter);
  // Only a deletion after every added line can be at the end of the file; only then is the line count needed.
  const lineCount = lastDeletion >= lastAdded ? countLines(await read()) : Number.POSITIVE_INFINITY;
  const points = entry.deletedAfter.map((after) => {
    const line = Math.max(1, Math.min(after + 1, lineCount));
    return { start: line, end: line };
  });
  return mergeRanges([...entry.added, ...points]);
}

/** Lines as git counts them: a last line without a newline still counts. Unknown content counts as unbounded. */
function countLines(bytes: Buffer | null): number {
  if (bytes === null) return Number.POSITIVE_INFINITY;
  if (bytes.length === 0) return 0;
  let count = 0;
  let at = bytes.indexOf(10);
  while (at !== -1) {
    count += 1;
    at = bytes.indexOf(10, at + 1);
  }
  return bytes[bytes.length - 1] === 10 ? count : count + 1;
}

async function pointsOutside(link: string, target: string, root: string, realRoot: string): Promise<boolean> {
  const lexical = isAbsolute(target) ? target : resolve(dirname(link), target);
  if (isOutside(root, lexical) && isOutside(realRoot, lexical)) return true;
  // A link to a link (or through a symlinked folder) can still leave the repository: check where it really lands.
  const real = await realpath(link).catch(() => null);
  return real !== null && isOutside(realRoot, real);
}

function isOutside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '..' || rel.startsWith('../') || isAbsolute(rel);
}

/** "3.2 MB", "1 MB", "512 kB", "12 B" (decimal units, like the config's maxFileSize default of 1_000_000). */
function formatBytes(bytes: number): string {
  const units: Array<[number, string]> = [
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'kB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} B`;
}
