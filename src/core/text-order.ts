/**
 * The one order of what tollgate prints, hashes or keys state by (a scan's findings and skipped files, a change set's
 * paths, the policy's digest, reports and listings): UTF-16 code units, as `<` and `sort()` compare strings. The same
 * on every machine and in every locale, and it costs no collator: `localeCompare` built ICU's, 6 ms of CPU a process
 * at its first call (docs/benchmarks.md, session 31, "histgc"). Upper case sorts before lower case (`B` before `a`),
 * and punctuation by its code (`-` before `.` before `/`).
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Findings and the like: by path (`compareText`), then line, then column. */
export function byPathLineColumn(
  a: { path: string; line: number; column: number },
  b: { path: string; line: number; column: number },
): number {
  return compareText(a.path, b.path) || a.line - b.line || a.column - b.column;
}
