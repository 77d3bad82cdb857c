import { lstatSync, type Stats } from 'node:fs';

/** `lstat`, or null when the path cannot be looked at (gone, or a folder on the way not searchable). */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
