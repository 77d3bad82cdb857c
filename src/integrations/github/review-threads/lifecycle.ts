/**
 * Where the review-thread work of a PR stands. Pure rules; the commands store
 * the phase with the reason that moved it.
 */
export const LIFECYCLE_PHASES = ['review_triage', 'fixing_review_findings', 'blocked', 'verified'] as const;
export type LifecyclePhase = (typeof LIFECYCLE_PHASES)[number];

export interface Lifecycle {
  phase: LifecyclePhase;
  reason: string;
}

export interface ScanFacts {
  complete: boolean;
  /** Unresolved threads among those selected. */
  unresolvedSelected: number;
  /** The filters left out some unresolved threads (authors, paths, outdated): the scan cannot vouch for all. */
  narrowed: boolean;
  triage: { humanDecisions: number; valid: number } | null;
}

export function phaseAfterScan(facts: ScanFacts, previous: LifecyclePhase | null): Lifecycle {
  if (!facts.complete) {
    return {
      phase: 'blocked',
      reason: 'the scan stopped at --max-threads before the last page; it cannot say there are no more threads',
    };
  }
  if (facts.triage && facts.triage.humanDecisions > 0) {
    return { phase: 'blocked', reason: `${facts.triage.humanDecisions} thread(s) need a human decision` };
  }
  if (facts.triage && facts.triage.valid > 0) {
    return { phase: 'fixing_review_findings', reason: `${facts.triage.valid} valid finding(s) to fix` };
  }
  if (facts.unresolvedSelected > 0) {
    return { phase: 'review_triage', reason: `${facts.unresolvedSelected} unresolved thread(s) to triage` };
  }
  if (!facts.narrowed && previous === 'verified') return { phase: 'verified', reason: 'no unresolved threads' };
  return {
    phase: 'review_triage',
    reason: facts.narrowed ? 'no unresolved threads match the filters' : 'no unresolved threads',
  };
}

export interface FixFacts {
  dryRun: boolean;
  failed: number;
  humanDecisions: number;
  /** Reasons of blocked items. */
  blockedReasons: readonly string[];
  checksPassed: boolean;
  /** Every unresolved thread of the last unnarrowed, complete scan is resolved now. */
  allResolved: boolean;
}

/** Blocked only for want of checks, a commit or verification: the agent can fix that itself. */
const FIXABLE_BLOCK = /check|verification|commit|tollgate run|fixSummary/i;

export function phaseAfterFix(facts: FixFacts, previous: Lifecycle | null): Lifecycle | null {
  if (facts.dryRun) return previous;
  if (facts.failed > 0) return { phase: 'blocked', reason: `${facts.failed} GitHub mutation(s) failed` };
  if (facts.humanDecisions > 0) {
    return { phase: 'blocked', reason: `${facts.humanDecisions} thread(s) need a human decision` };
  }
  if (facts.blockedReasons.length > 0) {
    return facts.blockedReasons.every((reason) => FIXABLE_BLOCK.test(reason))
      ? {
          phase: 'fixing_review_findings',
          reason: `${facts.blockedReasons.length} item(s) wait for checks or evidence`,
        }
      : { phase: 'blocked', reason: `${facts.blockedReasons.length} item(s) blocked by policy` };
  }
  if (facts.checksPassed && facts.allResolved) {
    return { phase: 'verified', reason: 'every unresolved thread is resolved and the last run passed' };
  }
  return { phase: 'review_triage', reason: 'replies and resolutions applied; threads remain open' };
}
