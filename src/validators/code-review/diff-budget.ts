import type { RepoChangeSet } from '../../core/change-set/types.js';
import { formatSize } from '../../core/config/units.js';

export interface OmittedFile {
  path: string;
  /** Why its diff is not in the prompt ("binary", "over the 100-file cap (code_review.maxFiles)"). */
  reason: string;
}

export interface DiffSelection {
  /** The unified diff of the files that fit, in change-set order. */
  diff: string;
  included: string[];
  /** Changed files whose diff is left out: named in the prompt so the reviewer can read them itself. */
  omitted: OmittedFile[];
}

export interface DiffBudget {
  maxFiles: number;
  maxBytes: number;
}

/**
 * Picks the diff that goes into the prompt: at most `maxFiles` readable files and `maxBytes` of diff, in change-set
 * order, skipping a file whose diff does not fit so that smaller ones after it still can. Nothing is silently dropped:
 * every changed file is either in the diff or in `omitted`, with why.
 */
export async function selectDiff(changeSet: RepoChangeSet, budget: DiffBudget): Promise<DiffSelection> {
  const omitted: OmittedFile[] = [];
  const skipped = new Map(changeSet.skipped.map((file) => [file.path, file.detail]));
  const candidates: string[] = [];
  for (const file of changeSet.files) {
    const skipDetail = skipped.get(file.path);
    if (skipDetail !== undefined) omitted.push({ path: file.path, reason: skipDetail });
    else if (file.binary) omitted.push({ path: file.path, reason: 'binary' });
    else if (candidates.length >= budget.maxFiles) {
      omitted.push({ path: file.path, reason: `over the ${budget.maxFiles}-file cap (code_review.maxFiles)` });
    } else candidates.push(file.path);
  }
  if (candidates.length === 0) return { diff: '', included: [], omitted };

  const sections = splitDiffSections(await changeSet.diff(candidates));
  const included: string[] = [];
  const kept: string[] = [];
  let used = 0;
  const overBudget = `its diff does not fit the ${formatSize(budget.maxBytes)} budget (code_review.maxDiffBytes)`;
  for (const section of sections) {
    const size = Buffer.byteLength(section.text);
    const path = section.path ?? section.text.split('\n', 1)[0]!;
    if (used + size > budget.maxBytes) {
      omitted.push({ path, reason: overBudget });
      continue;
    }
    used += size;
    kept.push(section.text);
    if (section.path !== null && !included.includes(section.path)) included.push(section.path);
  }
  return { diff: kept.join(''), included, omitted };
}

export interface DiffSection {
  /** Path of the new version (the old one for a deletion), or null when the header could not be read. */
  path: string | null;
  text: string;
}

/** Splits a `git diff` into one section per file, each starting at its `diff --git` line. */
function splitDiffSections(diff: string): DiffSection[] {
  const starts: number[] = [];
  for (const match of diff.matchAll(/^diff --git /gm)) starts.push(match.index);
  return starts.map((start, index) => {
    const text = diff.slice(start, starts[index + 1] ?? diff.length);
    return { path: sectionPath(text), text };
  });
}

function sectionPath(section: string): string | null {
  const header = section.slice(0, 4096);
  const plusPlus = /^\+\+\+ (?:b\/(.+)|\/dev\/null)$/m.exec(header);
  if (plusPlus?.[1]) return unquote(plusPlus[1]);
  const minusMinus = /^--- a\/(.+)$/m.exec(header);
  if (minusMinus?.[1]) return unquote(minusMinus[1]);
  const renameTo = /^rename to (.+)$/m.exec(header);
  if (renameTo?.[1]) return unquote(renameTo[1]);
  // Binary or mode-only sections: `diff --git a/x b/x` (paths without spaces).
  const gitLine = /^diff --git a\/(\S+) b\/(\S+)$/m.exec(header);
  return gitLine?.[2] ?? null;
}

/** git quotes paths with unusual characters: `"a/t\303\251st.txt"`. Good enough to name the file. */
function unquote(path: string): string {
  const trimmed = path.replace(/\t$/, '');
  if (!trimmed.startsWith('"')) return trimmed;
  return trimmed.slice(1, -1).replace(/^[ab]\//, '');
}
