import { realpathSync, statSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { SkippedTarget } from '../scan-target-types.js';
import { BROKEN_LINK } from '../scan-targets.js';

/** How a listed symbolic link is scanned: through it (with its target's size), skipped with a reason, or not at all. */
export type LinkedFile = { size: number } | { skip: LinkSkip } | null;

export interface LinkSkip {
  reason: Extract<SkippedTarget['reason'], 'symlink_outside_repo' | 'unreadable'>;
  detail: string;
}

/**
 * What a listed symbolic link is, from where it leads (`target`, null when it leads nowhere) and what is there (null
 * when that cannot be looked at). Null for a link to a folder: a link, not a file, whose folder's files are listed
 * under their own paths when they are inside. The listing and the disk queue (a link put where git's index has a
 * file) both decide here.
 */
export function linkedFileOf(
  target: string | null,
  realRoot: string | null,
  targetInfo: { isDirectory(): boolean; size: number } | null,
): LinkedFile {
  if (target === null) return { skip: { reason: 'unreadable', detail: BROKEN_LINK } };
  if (realRoot && !isInside(realRoot, target))
    return { skip: { reason: 'symlink_outside_repo', detail: 'symbolic link to a file outside the repository' } };
  if (targetInfo?.isDirectory()) return null;
  return { size: targetInfo?.size ?? 0 };
}

/** The same, looked at now on this thread. */
export function linkedFileSync(absolute: string, realRoot: string | null): LinkedFile {
  let target: string | null;
  try {
    target = realpathSync(absolute);
  } catch {
    target = null;
  }
  if (target === null || (realRoot && !isInside(realRoot, target))) return linkedFileOf(target, realRoot, null);
  let info: { isDirectory(): boolean; size: number } | null;
  try {
    info = statSync(absolute);
  } catch {
    info = null;
  }
  return linkedFileOf(target, realRoot, info);
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}
