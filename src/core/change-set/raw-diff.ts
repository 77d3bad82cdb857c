/**
 * Parser for `git diff --raw -z` records. Pure.
 *
 * A record is `:<srcMode> <dstMode> <srcId> <dstId> <status>[score]\0<path>\0` plus `<newPath>\0` for renames and
 * copies (https://git-scm.com/docs/git-diff#_raw_output_format). With `-z` no path is quoted, so any byte but NUL
 * survives. When a patch follows (`-p`), git ends the raw part with one extra NUL.
 */

export interface RawEntry {
  srcMode: number;
  dstMode: number;
  srcId: string;
  dstId: string;
  /** A, C, D, M, R, T, U or X. */
  status: string;
  /** Path at the base (differs from `path` only for renames and copies). */
  srcPath: string;
  /** Path in the new version (for deletions, the deleted path). */
  path: string;
}

export interface SplitDiffOutput {
  /** The raw part, decoded as UTF-8 (paths are UTF-8 in practice; git stores bytes). */
  raw: string;
  /** The patch, decoded as latin1 so that string offsets are byte offsets; only ASCII markers are read from it. */
  patch: string;
}

/**
 * Splits the output of `--raw -z -p` at the separator NUL. Records never hold an empty field, so the first pair of NULs
 * is the separator. `decodeRaw: false` leaves `raw` empty, for a caller that parsed the raw records already.
 */
export function splitDiffOutput(output: Buffer, decodeRaw = true): SplitDiffOutput {
  const separator = output.indexOf('\0\0');
  if (separator === -1) return { raw: decodeRaw ? output.toString('utf8') : '', patch: '' };
  return {
    raw: decodeRaw ? output.toString('utf8', 0, separator + 1) : '',
    patch: output.toString('latin1', separator + 2),
  };
}

export function parseRawDiff(raw: string): RawEntry[] {
  const fields = raw.split('\0');
  const entries: RawEntry[] = [];
  let i = 0;
  // The text ends with a NUL, so the last field is empty.
  while (i < fields.length - 1) {
    const headerField = fields[i] ?? '';
    const header = headerField.slice(1).split(' ');
    const [srcMode, dstMode, srcId, dstId, statusScore] = header;
    if (
      !headerField.startsWith(':') ||
      header.length !== 5 ||
      !srcMode ||
      !dstMode ||
      !srcId ||
      !dstId ||
      !statusScore
    ) {
      throw new Error(`git diff --raw: unexpected record ${JSON.stringify(headerField)}`);
    }
    const status = statusScore[0] ?? '';
    const srcPath = fields[i + 1];
    const path = status === 'R' || status === 'C' ? fields[i + 2] : srcPath;
    if (!srcPath || !path)
      throw new Error(`git diff --raw: record without a path after ${JSON.stringify(headerField)}`);
    i += status === 'R' || status === 'C' ? 3 : 2;
    entries.push({
      srcMode: Number.parseInt(srcMode, 8),
      dstMode: Number.parseInt(dstMode, 8),
      srcId,
      dstId,
      status,
      srcPath,
      path,
    });
  }
  return entries;
}

export const MODE_TYPE_MASK = 0o170000;
export const MODE_SYMLINK = 0o120000;
export const MODE_REGULAR = 0o100000;
export const MODE_GITLINK = 0o160000;

/**
 * git prints a pair whose file type changed (file ↔ symlink ↔ submodule) as two patches, a deletion then a creation
 * (`run_diff` in git's diff.c); every other pair is one patch.
 */
export function patchCountOf(entry: RawEntry): 1 | 2 {
  const bothExist = entry.srcMode !== 0 && entry.dstMode !== 0;
  return bothExist && (entry.srcMode & MODE_TYPE_MASK) !== (entry.dstMode & MODE_TYPE_MASK) ? 2 : 1;
}
