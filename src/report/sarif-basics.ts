import type { Severity } from '../core/finding.js';

/** SARIF's pieces every run tollgate writes shares (its own, imported analyzers', `tollgate scan`'s). */

export const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

/** GitHub code scanning's limit of results per run; past it the most severe are kept and the rest counted. */
export const MAX_RESULTS_PER_RUN = 25_000;
/** GitHub's limit of locations per result. */
export const MAX_LOCATIONS = 1_000;

export const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/** The most severe first, at most `limit`, in their original order. */
export function mostSevere<T extends { severity: Severity }>(items: readonly T[], limit: number): T[] {
  if (items.length <= limit) return [...items];
  const kept = new Set(
    [...items].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]).slice(0, limit),
  );
  return items.filter((item) => kept.has(item));
}

/** `properties` of a run that had to leave results out. */
export function droppedNote(dropped: number): Record<string, unknown> {
  if (dropped === 0) return {};
  return {
    properties: {
      droppedResults: dropped,
      note: `${dropped} less severe result(s) left out: GitHub accepts ${MAX_RESULTS_PER_RUN} per run`,
    },
  };
}
