import { closest, distance } from 'fastest-levenshtein';

/**
 * The known name a mistyped one was most likely meant to be, or undefined when none is close: within a third of the
 * word's length (at least 2 edits), ignoring case, so `chekcs` → `checks` and `maxfilesize` → `maxFileSize`.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const lowered = candidates.map((candidate) => candidate.toLowerCase());
  const best = closest(word.toLowerCase(), lowered);
  const allowed = Math.max(2, Math.floor(word.length / 3));
  if (distance(word.toLowerCase(), best) > allowed) return undefined;
  return candidates[lowered.indexOf(best)];
}
