import { isAbsolute, relative } from 'node:path';
import { distance } from 'fastest-levenshtein';
import type { RepoChangeSet } from '../../core/change-set/types.js';
import { type Finding, makeFinding, mergeFindings, normalizeTitle } from '../../core/finding.js';
import type { AnswerFinding, ReviewAnswer } from './answer.js';

const VALIDATOR = 'code_review';

export interface ReviewerAnswer {
  /** Adapter name: the finding's source. */
  reviewer: string;
  answer: ReviewAnswer;
}

export interface ExcludedFinding {
  reviewer: string;
  path: string;
  line?: number;
  title: string;
  exclusionReason: string;
}

export interface CollectedFindings {
  /** Merged across reviewers (with every reviewer that found it in `sources`); outside ones included. */
  findings: Finding[];
  /** Ids of the findings on files outside the change set: shown apart, still counted against `failOn`. */
  outsideChangeSet: string[];
  /** Findings the reviewers marked with an `exclusionReason`: dropped from `findings`, counted here. */
  excluded: ExcludedFinding[];
}

/** Reviewers name nearby lines for the same problem; within this many lines, similar titles merge. */
const MERGE_LINE_DISTANCE = 3;

export async function collectFindings(
  answers: readonly ReviewerAnswer[],
  changeSet: RepoChangeSet,
): Promise<CollectedFindings> {
  const changedPaths = new Set<string>();
  for (const file of changeSet.files) {
    changedPaths.add(file.path);
    if (file.oldPath) changedPaths.add(file.oldPath);
  }
  const excluded: ExcludedFinding[] = [];
  const made: Array<{ finding: Finding; outside: boolean }> = [];
  for (const { reviewer, answer } of answers) {
    for (const raw of answer.findings) {
      const path = normalizeFindingPath(raw.path, changeSet.root, changedPaths);
      if (raw.exclusionReason !== undefined) {
        excluded.push({
          reviewer,
          path,
          ...(raw.line !== undefined ? { line: raw.line } : {}),
          title: raw.title,
          exclusionReason: raw.exclusionReason,
        });
        continue;
      }
      const anchor = await lineAnchor(changeSet, path, raw.line);
      made.push({ finding: toFinding(raw, path, reviewer, anchor), outside: !changedPaths.has(path) });
    }
  }
  const unified = unifySimilar(made.map((entry) => entry.finding));
  const findings = mergeFindings(unified);
  const outside = new Set(unified.filter((_, index) => made[index]!.outside).map((finding) => finding.id));
  return { findings, outsideChangeSet: findings.filter((f) => outside.has(f.id)).map((f) => f.id), excluded };
}

function toFinding(raw: AnswerFinding, path: string, reviewer: string, anchor: string | number | undefined): Finding {
  const body = raw.suggestion ? `${raw.body.trim()}\n\nSuggestion: ${raw.suggestion.trim()}`.trim() : raw.body.trim();
  return makeFinding({
    validator: VALIDATOR,
    severity: raw.severity,
    title: raw.title,
    ...(body ? { body } : {}),
    path,
    ...(raw.line !== undefined ? { line: raw.line } : {}),
    ...(anchor !== undefined ? { anchor } : {}),
    source: reviewer,
  });
}

/** `./src/a.ts`, `/abs/repo/src/a.ts`, `b/src/a.ts` (diff style) and `src\a.ts` all name `src/a.ts`. */
function normalizeFindingPath(path: string, repoRoot: string, changedPaths: ReadonlySet<string>): string {
  let normalized = path.trim().replace(/\\/g, '/');
  if (isAbsolute(normalized)) {
    const inside = relative(repoRoot, normalized).replace(/\\/g, '/');
    if (!inside.startsWith('..')) normalized = inside;
  }
  normalized = normalized.replace(/^(\.\/)+/, '');
  if (!changedPaths.has(normalized)) {
    const withoutPrefix = normalized.replace(/^[ab]\//, '');
    if (changedPaths.has(withoutPrefix)) normalized = withoutPrefix;
  }
  return normalized;
}

/** The trimmed text of the line (it survives lines moving), else the line number, else nothing. */
async function lineAnchor(changeSet: RepoChangeSet, path: string, line: number | undefined) {
  if (line === undefined) return undefined;
  const text = await changeSet.readText(path).catch(() => null);
  const lineText = text?.split('\n')[line - 1]?.trim();
  return lineText ? lineText : line;
}

/**
 * Gives findings from different reviewers that point at the same place and the same problem the same id, so that
 * `mergeFindings` keeps one with every source. "Same place": the same file, lines at most 3 apart (or both on the
 * whole file). "Same problem": titles that share most words or differ by little.
 */
function unifySimilar(input: readonly Finding[]): Finding[] {
  const findings = [...input];
  for (let later = 1; later < findings.length; later++) {
    const candidate = findings[later]!;
    for (let earlier = 0; earlier < later; earlier++) {
      const first = findings[earlier]!;
      if (first.id === candidate.id || first.sources[0] === candidate.sources[0]) continue;
      if (samePlace(first, candidate) && similarTitles(first.title, candidate.title)) {
        findings[later] = { ...candidate, id: first.id };
        break;
      }
    }
  }
  return findings;
}

function samePlace(a: Finding, b: Finding): boolean {
  if (a.path !== b.path) return false;
  if (a.line === undefined || b.line === undefined) return a.line === b.line;
  return Math.abs(a.line - b.line) <= MERGE_LINE_DISTANCE;
}

function similarTitles(a: string, b: string): boolean {
  const left = normalizeTitle(a);
  const right = normalizeTitle(b);
  if (left === right) return true;
  const wordsA = new Set(left.split(/\W+/).filter((word) => word.length > 2));
  const wordsB = new Set(right.split(/\W+/).filter((word) => word.length > 2));
  const shared = [...wordsA].filter((word) => wordsB.has(word)).length;
  const union = new Set([...wordsA, ...wordsB]).size;
  if (union > 0 && shared / union >= 0.5) return true;
  return distance(left, right) / Math.max(left.length, right.length) <= 0.3;
}
