import type { SecretsBaseline } from '../../secrets/baseline.js';
import type { ScanOutcome } from '../../secrets/scan-targets.js';

type BaselineEntry = SecretsBaseline['findings'][number];

/** `tollgate scan --baseline-audit`: which baseline entries still stand for a finding, and which no longer do. */
export interface BaselineAudit {
  baseline: string;
  entries: number;
  /** Entries whose finding is gone (the secret was removed, or its file moved or was deleted). */
  stale: BaselineEntry[];
  /** Whether the stale entries were removed from the file (`--baseline-prune`). */
  pruned: boolean;
}

/**
 * A baseline entry stands while a scan of the same tree still finds its fingerprint, whether the baseline, an inline
 * allow or nothing cleared it. Fingerprints hold rule, path and secret, so a moved line keeps its entry.
 */
export function auditBaseline(
  entries: readonly BaselineEntry[],
  outcome: Pick<ScanOutcome, 'findings' | 'suppressed'>,
): { live: BaselineEntry[]; stale: BaselineEntry[] } {
  const found = new Set([...outcome.findings, ...outcome.suppressed].map((item) => item.fingerprint));
  return {
    live: entries.filter((entry) => found.has(entry.fingerprint)),
    stale: entries.filter((entry) => !found.has(entry.fingerprint)),
  };
}

export function renderBaselineAudit(audit: BaselineAudit, format: 'markdown' | 'json'): string {
  if (format === 'json') return `${JSON.stringify({ tool: 'tollgate', ...audit }, null, 2)}\n`;
  const count = audit.stale.length;
  const lines = [
    `## tollgate baseline audit: ${count === 0 ? 'every entry still matches a finding' : `${count} stale entr${count === 1 ? 'y' : 'ies'}`}`,
    '',
    `${audit.baseline}: ${audit.entries} entr${audit.entries === 1 ? 'y' : 'ies'}, ${count} no longer match a finding in the work tree.`,
  ];
  if (count > 0) {
    lines.push('');
    for (const entry of audit.stale)
      lines.push(
        `- \`${entry.path}:${entry.line}\` secrets/${entry.ruleId} (fingerprint ${entry.fingerprint.slice(0, 12)}…)`,
      );
    lines.push(
      '',
      audit.pruned
        ? `Removed ${count === 1 ? 'it' : 'them'} from ${audit.baseline}.`
        : 'Remove them with `tollgate scan --baseline-audit --baseline-prune`, so the baseline cannot hide a secret that comes back under the same name.',
    );
  }
  return `${lines.join('\n')}\n`;
}
