import { stripAnsi } from '../terminal-text.js';

/**
 * The one excerpt of a failure that every report shows (MCP results, the stop hook's reason, GitHub annotations,
 * Markdown, HTML, JSON): the lines that name the failure, each with a little context, then the true tail. Never the
 * head of the output: a runner prints its passing tests first, and a long passing run would fill any fixed-size head.
 */

/**
 * Lines that announce a failure in the common test runners, compilers and linters. The check validator also keys a
 * failure's identity (and so its waiver) on these lines: see `OutputTail.signature`.
 */
export const FAILURE_LINE = new RegExp(
  [
    /^\s*not ok \d+/, // TAP, node:test
    /^\s*FAIL(?:ED)?\b/, // jest, vitest, pytest `FAILED tests/…::test`, go `FAIL\tpkg`
    /^\s*(?:[\u2717\u2716\u2715\u00d7\u2718]|\[fail\])\s/, // vitest, ava, mocha: ✗ ✖ ✕ × ✘ (spec reporter variants)
    /^\s*--- FAIL:/, // go test
    /^\s*\u25cf /, // jest: `● suite › test`
    /^\s+\d+\) \S/, // mocha: `  1) suite`
    /^E\s{2,}\S/, // pytest assertion detail
    /^_{3,} \S.* _{3,}$/, // pytest: `_____ test_name _____`
    /^test \S+ \.\.\. FAILED$/, // cargo test
    /^---- \S+ stdout ----$/, // cargo test
    /panicked at /, // rust
    /^panic: /, // go
    /^Traceback \(most recent call last\):/, // python
    /^\s*[A-Za-z]*(?:Error|Exception):/, // `AssertionError: …`, `TypeError: …`
    /^\s*error(?:\[[A-Z]?\d+\])?:/, // rustc, cargo, generic `error:`
    /\berror TS\d+:/, // tsc
    /^\s*\d+:\d+\s+error\s/, // eslint stylish: `  3:10  error  …  rule`
  ]
    .map((pattern) => pattern.source)
    .join('|'),
);

/** Lines kept after each failure line: the assertion, expected/actual, the first stack frame. */
const CONTEXT_AFTER = 3;
/** Longest line kept as is; longer ones are cut (minified output, JSON blobs). */
export const EXCERPT_LINE_CHARS = 400;
/** Fewest lines an excerpt may be asked for: a failure line, a gap marker and the last line. */
export const MIN_EXCERPT_LINES = 3;

/** True for a line that names a failure (see FAILURE_LINE). */
export function isFailureLine(line: string): boolean {
  return FAILURE_LINE.test(line);
}

/**
 * At most `maxLines` lines (at least MIN_EXCERPT_LINES) of `text`: every line when it fits; otherwise the failure
 * lines from before the tail, with context, as many as fit in half the lines, and the last lines in the rest, with a
 * `… N line(s) omitted` marker at each gap. The last line is always kept. Pure.
 */
export function failureExcerpt(text: string, maxLines: number): string {
  const lines = normalizedLines(text);
  const budget = Math.max(MIN_EXCERPT_LINES, Math.floor(maxLines));
  if (lines.length <= budget) return lines.join('\n');
  const picked = failureBlocks(lines, budget);
  for (let tail = budget; tail >= 1; tail--) {
    const shown = assemble(lines, picked, tail);
    if (shown.length <= budget) return shown.join('\n');
  }
  return assemble(lines, new Set(), 1).join('\n');
}

/** The lines that name the failure (no context, no tail), for one-line summaries such as the stop hook's. */
export function failureLines(text: string, max: number): string[] {
  return normalizedLines(text).filter(isFailureLine).slice(0, Math.max(0, max));
}

function normalizedLines(text: string): string[] {
  const lines = stripAnsi(text)
    .split('\n')
    .map((line) => clip(line.replace(/\r$/, '')));
  while (lines.length > 1 && lines.at(-1)!.trim() === '') lines.pop();
  return lines;
}

/**
 * A line that names a place in a file: TAP's `at: math.js:1:28`, a stack frame `at add (src/math.ts:3:9)`, node's
 * `location: '/repo/test.js:4:1'`, go's `math_test.go:12:`. The failure line says what failed; this one says where.
 */
const LOCATION_LINE = /[\w.-]\.[A-Za-z]\w*:\d+(?::\d+)?/;
/** Lines after a failure line searched for its location (TAP's YAML block, an error's message before its stack). */
const LOCATION_WINDOW = 12;

/**
 * Failure lines and their context, first ones first, within half the budget (each run of lines costs a gap marker
 * too). Each failure line comes with its location line before any other context; the first failure's pair may take
 * all but the last line and its marker, so that no excerpt, however short, loses where the failure is.
 */
function failureBlocks(lines: readonly string[], budget: number): Set<number> {
  const picked = new Set<number>();
  const room = Math.floor(budget / 2);
  const tailStart = lines.length - (budget - room);
  let first = true;
  for (let index = 0; index < tailStart; index++) {
    if (picked.has(index) || !isFailureLine(lines[index]!)) continue;
    const location = locationAfter(lines, index);
    const wanted = [index, ...(location === null ? [] : [location]), ...contextAfter(lines, index, tailStart, picked)];
    for (const [order, at] of wanted.entries()) {
      if (picked.has(at)) continue;
      const limit = first && order < 2 ? budget - 2 : room;
      if (costOf(new Set(picked).add(at)) > limit) return picked;
      picked.add(at);
    }
    first = false;
  }
  return picked;
}

/** The first line after a failure line that names a place, before the next failure; null when the failure line does. */
function locationAfter(lines: readonly string[], index: number): number | null {
  if (LOCATION_LINE.test(lines[index]!)) return null;
  const end = Math.min(lines.length - 1, index + 1 + LOCATION_WINDOW);
  for (let at = index + 1; at < end; at++) {
    if (isFailureLine(lines[at]!)) return null;
    if (LOCATION_LINE.test(lines[at]!)) return at;
  }
  return null;
}

/** The lines right after a failure line (the assertion, expected and actual), up to a blank or an already shown one. */
function contextAfter(
  lines: readonly string[],
  index: number,
  tailStart: number,
  picked: ReadonlySet<number>,
): number[] {
  const context: number[] = [];
  for (let at = index + 1; at < Math.min(tailStart, index + 1 + CONTEXT_AFTER); at++) {
    if (picked.has(at) || lines[at]!.trim() === '') break;
    context.push(at);
  }
  return context;
}

/** Lines shown plus one gap marker before each run of them. */
function costOf(picked: ReadonlySet<number>): number {
  let runs = 0;
  for (const at of picked) if (!picked.has(at - 1)) runs += 1;
  return picked.size + runs;
}

/** The picked lines and the last `tail` lines, in order, with a marker for each run of omitted lines. */
function assemble(lines: readonly string[], picked: ReadonlySet<number>, tail: number): string[] {
  const keep = new Set(picked);
  for (let index = Math.max(0, lines.length - tail); index < lines.length; index++) keep.add(index);
  const shown: string[] = [];
  let gap = 0;
  lines.forEach((line, index) => {
    if (!keep.has(index)) {
      gap += 1;
      return;
    }
    if (gap > 0) shown.push(`… ${gap} line(s) omitted`);
    gap = 0;
    shown.push(line);
  });
  return shown;
}

function clip(line: string): string {
  return line.length > EXCERPT_LINE_CHARS ? `${line.slice(0, EXCERPT_LINE_CHARS)} … (${line.length} chars)` : line;
}
