import { createHash } from 'node:crypto';

interface HistoryLists {
  validated?: unknown;
  bases?: unknown;
}

/**
 * The commits a history (`.tollgate/history.json`, read and verified) trusts, newest first: the HEADs of passing runs
 * and the bases runs used. Zod-free, so the fast paths' small bundles can read it too.
 */
export function trustedCommitsOf(history: HistoryLists): string[] {
  const entries = [...listOf(history.validated), ...listOf(history.bases)];
  const newestFirst = entries.sort((a, b) => (a.at < b.at ? 1 : -1));
  return [...new Set(newestFirst.map((entry) => entry.commit))];
}

/**
 * A digest of what a history trusts, in the order the base resolution reads it: any change to it may move a pinned
 * base, so a saved answer stands only while the digest it was saved with is the history's. '' for no history.
 */
export function trustedDigestOf(history: HistoryLists | null): string {
  if (!history) return '';
  return createHash('sha256').update(trustedCommitsOf(history).join('\n')).digest('hex');
}

function listOf(value: unknown): { commit: string; at: string }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is { commit: string; at: string } =>
      typeof (entry as { commit?: unknown } | null)?.commit === 'string' &&
      typeof (entry as { at?: unknown }).at === 'string',
  );
}
