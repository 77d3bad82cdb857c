import type { Classification, FixItem } from './payload-schemas.js';
import type { StoredThread } from './state.js';

/**
 * The policy of `fix-comments`, per classification:
 *
 * | classification | reply                                             | resolution                                                  |
 * |----------------|---------------------------------------------------|-------------------------------------------------------------|
 * | valid          | needs fixSummary and verification                 | needs commitSha (in the pushed head), verification, checks  |
 * | already_fixed  | needs evidence (fixSummary) and verification      | only if autoResolveClassifications has it, and checks       |
 * | stale          | needs evidence and verification                   | only if allowed by config, outdated or evidence, and checks |
 * | invalid        | needs a rationale (fixSummary/humanDecision/body) | only if autoResolveClassifications has it (explicit policy) |
 * | needs_human    | never                                             | never                                                       |
 *
 * A resolution blocker does not block the reply. Pure: the evidence is looked up by the caller.
 */

export type CheckEvidence =
  | { status: 'passed'; runId: string; at: string }
  /** Anything else blocks resolution: failed, incomplete (skipped), missing, or a run not on the pushed commit. */
  | { status: 'failed' | 'incomplete' | 'missing' | 'not_head' | 'unknown'; detail: string };

export type CommitInHead = 'yes' | 'no' | 'unknown';

export interface PolicyConfig {
  autoResolveClassifications: readonly Exclude<Classification, 'needs_human'>[];
  requireChecksBeforeResolve: boolean;
}

export interface PolicyInput {
  item: FixItem;
  /** The thread as the last scan stored it; undefined in `--detached` mode. */
  stored: StoredThread | undefined;
  config: PolicyConfig;
  /** Resolution turned on by config `autoResolve` rather than a flag: every classification needs the allow-list. */
  autoResolveMode: boolean;
  evidence: CheckEvidence;
  /** Whether `commitSha` is in the PR's pushed head (only asked for valid items with a commitSha). */
  commitInHead: CommitInHead;
}

export type Decision = { allowed: true } | { allowed: false; reason: string; humanDecision?: boolean };

export interface PolicyDecision {
  reply: Decision;
  /** `null` when no resolution was requested. */
  resolve: Decision | null;
}

const NEEDS_HUMAN = 'needs_human: a person decides this thread; tollgate never replies to or resolves it';

export function needsHuman(item: FixItem, stored: StoredThread | undefined): boolean {
  return (
    item.classification === 'needs_human' ||
    stored?.classification === 'needs_human' ||
    stored?.requiresHumanDecision === true
  );
}

export function evaluateFixPolicy(input: PolicyInput): PolicyDecision {
  const { item, stored } = input;
  if (needsHuman(item, stored)) {
    const blocked: Decision = { allowed: false, reason: NEEDS_HUMAN, humanDecision: true };
    return { reply: blocked, resolve: item.resolveRequested ? blocked : null };
  }
  if (stored?.classification && stored.classification !== item.classification) {
    const blocked: Decision = {
      allowed: false,
      reason: `classification "${item.classification}" differs from the triage ("${stored.classification}"); rerun tollgate comments --triage-payload with the new classification`,
    };
    return { reply: blocked, resolve: item.resolveRequested ? blocked : null };
  }
  return { reply: replyDecision(item), resolve: item.resolveRequested ? resolveDecision(input) : null };
}

function replyDecision(item: FixItem): Decision {
  const verified = item.verification.length > 0;
  switch (item.classification) {
    case 'valid':
      if (!item.fixSummary) return blocked('valid: a reply needs fixSummary (what changed)');
      if (!verified) return blocked('valid: a reply needs verification (what was checked)');
      return { allowed: true };
    case 'already_fixed':
    case 'stale':
      if (!item.fixSummary && !item.replyBody) {
        return blocked(`${item.classification}: a reply needs evidence (fixSummary or replyBody)`);
      }
      if (!verified) return blocked(`${item.classification}: a reply needs verification (what was checked)`);
      return { allowed: true };
    case 'invalid':
      if (!item.fixSummary && !item.humanDecision && !item.replyBody) {
        return blocked('invalid: a reply needs a rationale (fixSummary, humanDecision or replyBody)');
      }
      return { allowed: true };
    case 'needs_human':
      return blocked(NEEDS_HUMAN);
  }
}

function resolveDecision(input: PolicyInput): Decision {
  const { item, stored, config } = input;
  const classification = item.classification as Exclude<Classification, 'needs_human'>;
  if (stored?.canResolveAfterChecks === false) {
    return blocked('the triage marked this thread canResolveAfterChecks: false; leave it to the reviewer');
  }
  const listed = config.autoResolveClassifications.includes(classification);
  if (classification !== 'valid' && !listed) {
    return blocked(
      `${classification}: resolution needs "${classification}" in reviewComments.autoResolveClassifications (explicit project policy)`,
    );
  }
  if (input.autoResolveMode && !listed) {
    return blocked(
      `${classification}: config autoResolve resolves only reviewComments.autoResolveClassifications; pass --apply-resolutions to resolve it explicitly`,
    );
  }
  if (item.verification.length === 0) return blocked(`${classification}: resolution needs verification`);
  if (classification === 'valid') {
    if (!item.commitSha) return blocked('valid: resolution needs commitSha, the commit that holds the fix');
    if (input.commitInHead === 'no') {
      return blocked(
        `valid: commit ${item.commitSha} is not in the PR head of the last scan; push it, let its checks pass, then run \`tollgate comments\` and rerun`,
      );
    }
    if (input.commitInHead === 'unknown') {
      return blocked(`valid: cannot tell whether commit ${item.commitSha} is in the PR head; fetch it, then rerun`);
    }
  }
  if ((classification === 'valid' || classification === 'already_fixed') && !item.fixSummary) {
    return blocked(`${classification}: resolution needs fixSummary`);
  }
  if (classification === 'stale' && !stored?.isOutdated && !item.fixSummary) {
    return blocked('stale: GitHub does not mark this thread outdated, so resolution needs fixSummary (the evidence)');
  }
  if (config.requireChecksBeforeResolve && input.evidence.status !== 'passed') {
    return blocked(
      `checks: ${input.evidence.detail} (reviewComments.requireChecksBeforeResolve; payload checksRun alone is not evidence)`,
    );
  }
  return { allowed: true };
}

function blocked(reason: string): Decision {
  return { allowed: false, reason };
}
