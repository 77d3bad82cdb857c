import { constants, fstatSync, openSync } from 'node:fs';
import { lstatOrNull } from '../../core/lstat-or-null.js';

/**
 * Opened without following a symbolic link (one put where git's index has a file is handled as the listing handles
 * links) and without waiting on a FIFO put there (which the listing never opened): the open itself then says what the
 * path is, where the listing paid an `lstat` before the scan's open of the same path; a file whose bytes are the count
 * the index has needs no `fstat` either (see `scanQueue`).
 */
const UNCHECKED_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Where files can be opened as `openListedFile` does (POSIX: Windows has no `O_NOFOLLOW`). */
export function canOpenUnchecked(): boolean {
  return constants.O_NOFOLLOW !== undefined && constants.O_NONBLOCK !== undefined;
}

/** A listed file as opening it found it: open; a symbolic link; or nothing to scan. */
export type ListedFileFound = { fd: number } | 'link' | 'gone';

/**
 * Opens a file listed unchecked (`DiskFile.unchecked`) and says what it is, as an `lstat` at listing would have:
 * gone (git's `--cached` lists deleted files), a link for the caller to resolve, else open. Throws the open's error for
 * a file that is there but cannot be opened: that file is reported unreadable, as before. An open path may still be a
 * folder or a FIFO: `lookAtOpenFile` says, when its bytes are not the index's count.
 */
export function openListedFile(path: string): ListedFileFound {
  try {
    return { fd: openSync(path, UNCHECKED_FLAGS) };
  } catch (error) {
    const info = lstatOrNull(path);
    if (info?.isSymbolicLink()) return 'link';
    if (info === null || !info.isFile()) return 'gone';
    throw error;
  }
}

/** An open file's size now, or null when it is no regular file (a folder, FIFO or device put where a file was). */
export function lookAtOpenFile(fd: number): number | null {
  const info = fstatSync(fd);
  return info.isFile() ? info.size : null;
}
