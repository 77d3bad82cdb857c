import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';

/**
 * Opened without following a symbolic link (one put where git's index has a file is handled as the listing handles
 * links) and without waiting on a FIFO put there (which the listing never opened): the open itself then says what the
 * path is, with one `fstat`, where the listing paid an `lstat` before the scan's open of the same path.
 */
const UNCHECKED_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Where files can be opened as `openListedFile` does (POSIX: Windows has no `O_NOFOLLOW`). */
export function canOpenUnchecked(): boolean {
  return constants.O_NOFOLLOW !== undefined && constants.O_NONBLOCK !== undefined;
}

/** A listed file as opening it found it: open, with its size now; a symbolic link; or nothing to scan. */
export type ListedFileFound = { fd: number; size: number } | 'link' | 'gone';

/**
 * Opens a file listed unchecked (`DiskFile.unchecked`) and says what it is, as an `lstat` at listing would have:
 * gone, a folder or anything but a file or link is not scanned (git's `--cached` lists deleted files; such a file was
 * never listed); a link is for the caller to resolve; a file is open, and its size is the one to read. Throws the
 * open's error for a file that is there but cannot be opened: that file is reported unreadable, as before.
 */
export function openListedFile(path: string): ListedFileFound {
  let fd: number;
  try {
    fd = openSync(path, UNCHECKED_FLAGS);
  } catch (error) {
    const info = lstatOrNull(path);
    if (info?.isSymbolicLink()) return 'link';
    if (info === null || !info.isFile()) return 'gone';
    throw error;
  }
  let info: Stats;
  try {
    info = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (!info.isFile()) {
    closeSync(fd);
    return 'gone';
  }
  return { fd, size: info.size };
}

/** `lstat`, or null when the path cannot be looked at (gone, or a folder on the way not searchable). */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
