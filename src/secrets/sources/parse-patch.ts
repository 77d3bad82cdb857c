import type { LineRange } from '../../core/change-set/types.js';

/**
 * Reads `git diff -U0` / `git log -p -U0` output: per file (and per commit, for logs) the added lines with their
 * line numbers in the new version. Pure, so the parser is tested on text.
 */
export interface PatchFile {
  commit: string | null;
  path: string;
  binary: boolean;
  /** Added lines in order, with their 1-based line numbers in the new file. */
  added: Array<{ line: number; text: string }>;
}

/** A commit header line, as printed by `--format=%x00commit %H`. */
const COMMIT_MARKER = '\0commit ';

export function parsePatch(output: string): PatchFile[] {
  const files: PatchFile[] = [];
  let commit: string | null = null;
  let current: PatchFile | null = null;
  let nextLine = 0;
  for (const raw of output.split('\n')) {
    if (raw.startsWith(COMMIT_MARKER)) {
      commit = raw.slice(COMMIT_MARKER.length).trim();
      current = null;
      continue;
    }
    if (raw.startsWith('diff --git ')) {
      current = { commit, path: pathFromDiffHeader(raw), binary: false, added: [] };
      files.push(current);
      continue;
    }
    if (!current) continue;
    if (raw.startsWith('+++ ')) {
      const target = withoutNameEnd(raw.slice(4));
      if (target !== '/dev/null') current.path = unquotePath(target).replace(/^b\//, '');
      continue;
    }
    if (raw.startsWith('Binary files ')) {
      current.binary = true;
      continue;
    }
    if (raw.startsWith('@@ ')) {
      const match = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
      nextLine = match ? Number(match[1]) : 0;
      continue;
    }
    if (raw.startsWith('+') && nextLine > 0) {
      current.added.push({ line: nextLine, text: raw.slice(1) });
      nextLine++;
    }
  }
  return files.filter((file) => file.added.length > 0 || file.binary);
}

export function pathFromDiffHeader(header: string): string {
  const rest = header.slice('diff --git '.length);
  const match = /^(?:"a\/(?:[^"\\]|\\.)*"|a\/\S+) (?:"b\/((?:[^"\\]|\\.)*)"|b\/(.+))$/.exec(rest);
  if (!match) return rest;
  return match[1] !== undefined ? unquotePath(`"${match[1]}"`) : match[2]!;
}

/** git ends a `---`/`+++` name that has a space in it with a tab (for patch(1)); it is not part of the name. */
export function withoutNameEnd(name: string): string {
  return name.endsWith('\t') ? name.slice(0, -1) : name;
}

/** git's C-style quoting of unusual paths (`"tab\there"`). */
export function unquotePath(path: string): string {
  if (!path.startsWith('"')) return path;
  try {
    return JSON.parse(
      path.replace(
        /\\([0-7]{3})/g,
        (_m, octal: string) => `\\u00${Number.parseInt(octal, 8).toString(16).padStart(2, '0')}`,
      ),
    ) as string;
  } catch {
    return path.slice(1, -1);
  }
}

/** Consecutive line numbers folded into ranges. */
export function toRanges(lines: readonly number[]): LineRange[] {
  const ranges: LineRange[] = [];
  for (const line of lines) {
    const last = ranges[ranges.length - 1];
    if (last && line === last.end + 1) last.end = line;
    else ranges.push({ start: line, end: line });
  }
  return ranges;
}
