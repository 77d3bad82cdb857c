import type { PolicyFile } from './effective-policy.js';

/** Files longer than this are summarised by size: a policy file that long is read in an editor, not a terminal. */
const MAX_DIFF_LINES = 2000;

/**
 * The edit of one policy file, base → working copy, as unified-diff-like lines (`-` removed, `+` added, ` ` kept
 * around a change). Pure; the caller masks secrets before printing.
 */
export function describePolicyEdit(file: PolicyFile): string[] {
  const before = linesOf(file.baseBytes ?? null);
  const after = linesOf(file.workingBytes ?? null);
  const header = [
    `--- ${file.path} (base${file.base === null ? ': no file' : ''})`,
    `+++ ${file.path} (working copy${file.working === null ? ': deleted' : ''})`,
  ];
  if (before.length > MAX_DIFF_LINES || after.length > MAX_DIFF_LINES) {
    return [...header, `  (${before.length} lines → ${after.length} lines; too long to show here)`];
  }
  return [...header, ...withContext(lineDiff(before, after))];
}

function linesOf(bytes: Buffer | null): string[] {
  if (bytes === null || bytes.length === 0) return [];
  return bytes.toString('utf8').replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
}

/** A longest-common-subsequence line diff: every line once, marked ' ', '-' or '+'. */
export function lineDiff(before: readonly string[], after: readonly string[]): string[] {
  const rows = before.length + 1;
  const cols = after.length + 1;
  const common = new Uint32Array(rows * cols);
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i * cols + j] =
        before[i] === after[j]
          ? common[(i + 1) * cols + j + 1]! + 1
          : Math.max(common[(i + 1) * cols + j]!, common[i * cols + j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      out.push(`  ${before[i++]}`);
      j++;
    } else if (j < after.length && (i === before.length || common[i * cols + j + 1]! >= common[(i + 1) * cols + j]!)) {
      out.push(`+ ${after[j++]}`);
    } else {
      out.push(`- ${before[i++]}`);
    }
  }
  return out;
}

/** Keeps changed lines and up to two unchanged lines around each; the rest becomes `…`. */
function withContext(lines: readonly string[]): string[] {
  const near = (index: number) => lines.slice(Math.max(0, index - 2), index + 3).some((line) => !line.startsWith('  '));
  const kept: string[] = [];
  lines.forEach((line, index) => {
    if (near(index)) kept.push(line);
    else if (kept.at(-1) !== '  …') kept.push('  …');
  });
  return kept;
}
