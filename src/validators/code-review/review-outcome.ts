import type { ReviewerPool, ReviewSlot } from '../../agents/reviewer-pool.js';
import type { AgentRunOutcome } from '../../agents/run-agent.js';
import { result, type ToolResult, type ToolStatus } from '../../core/result.js';
import type { ReviewAnswer } from './answer.js';
import type { CodeReviewOptions } from './options.js';

/** How a review's slots ended, and the status, summary and details the result reports from them. */

export type LostReason = Exclude<AgentRunOutcome['kind'], 'answer'> | 'unparseable';

export type SlotOutcome =
  | { kind: 'reviewed'; slot: ReviewSlot; answer: ReviewAnswer; durationMs: number; artifacts: string[] }
  | { kind: 'lost'; slot: ReviewSlot; reason: LostReason; message: string; durationMs: number; artifacts: string[] };

export function overallStatus(state: {
  treeChanged: boolean;
  blocking: number;
  reviewed: readonly SlotOutcome[];
  lost: ReadonlyArray<Extract<SlotOutcome, { kind: 'lost' }>>;
}): ToolStatus {
  if (state.treeChanged) return 'error';
  if (state.blocking > 0) return 'failed';
  if (state.lost.length === 0) return 'passed';
  const reasons = new Set(state.lost.map((outcome) => outcome.reason));
  const only = (...allowed: LostReason[]) => [...reasons].every((reason) => allowed.includes(reason));
  if (state.reviewed.length === 0 && only('not_logged_in', 'not_installed')) return 'tool_unavailable';
  if (only('timeout')) return 'timeout';
  if (only('rate_limited', 'timeout')) return 'rate_limited';
  return 'error';
}

export function summarize(state: {
  status: ToolStatus;
  treeChanged: boolean;
  options: CodeReviewOptions;
  reviewed: ReadonlyArray<Extract<SlotOutcome, { kind: 'reviewed' }>>;
  lost: ReadonlyArray<Extract<SlotOutcome, { kind: 'lost' }>>;
  blocking: number;
  outsideBlocking: number;
  total: number;
  excluded: number;
  outside: number;
}): string {
  const by = state.reviewed.map((outcome) => outcome.slot.label).join(', ');
  const notes: string[] = [];
  if (state.total > state.blocking) notes.push(`${state.total - state.blocking} below ${state.options.failOn}`);
  if (state.excluded > 0) notes.push(`${state.excluded} excluded by the reviewers`);
  if (state.outside > 0) notes.push(`${state.outside} on files outside the change set`);
  const noted = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  const lostText = state.lost.map((outcome) => `${outcome.slot.label}: ${outcome.message}`).join('; ');
  switch (state.status) {
    case 'passed':
      return `${plural(state.reviewed.length, 'review')} (${by}) found nothing at or above ${state.options.failOn}${noted}.`;
    case 'failed': {
      const outside = state.outsideBlocking > 0 ? `, ${state.outsideBlocking} of them outside the change set` : '';
      const incomplete = state.lost.length > 0 ? ` The review is also incomplete: ${lostText}.` : '';
      return `${plural(state.blocking, 'finding')} at or above ${state.options.failOn} from ${by}${outside}${noted}; fix them and rerun, or waive one with a reason.${incomplete}`;
    }
    case 'error':
      if (state.treeChanged) {
        const all = [...state.reviewed, ...state.lost].map((outcome) => outcome.slot.label).join(', ');
        return `the working tree changed while ${all} reviewed it: reviewers must be read-only, so this review does not count. Check \`git status\`, undo what the reviewer changed, and rerun.`;
      }
      return `review incomplete: ${lostText}.${state.reviewed.length > 0 ? ` Completed: ${by}${noted}.` : ''} ${nextStep(state.lost)}`;
    case 'timeout':
      return `review incomplete: ${lostText}. Raise code_review.timeout or review a smaller change.`;
    case 'rate_limited':
      return `review incomplete, rate limited: ${lostText}. This is transient: wait a minute and rerun.`;
    case 'tool_unavailable':
      return `no review ran: ${lostText}.`;
    default:
      return lostText;
  }
}

export function nextStep(lost: ReadonlyArray<Extract<SlotOutcome, { kind: 'lost' }>>): string {
  if (lost.some((outcome) => outcome.reason === 'usage_limit')) {
    return 'Rerun: adapters that hit a usage limit cool down for an hour and their slots go to the healthy ones.';
  }
  if (lost.some((outcome) => outcome.reason === 'unparseable')) {
    return 'Rerun; if it keeps happening, set code_review.repairRetry: true or use another CLI.';
  }
  return 'Rerun; the raw output of each reviewer is in the run folder.';
}

export function slotDetail(outcome: SlotOutcome) {
  const base = {
    slot: outcome.slot.slot,
    label: outcome.slot.label,
    adapter: outcome.slot.adapter.name,
    durationMs: outcome.durationMs,
    artifacts: outcome.artifacts,
  };
  return outcome.kind === 'reviewed'
    ? { ...base, status: 'reviewed', reviewerStatus: outcome.answer.status, findings: outcome.answer.findings.length }
    : { ...base, status: outcome.reason, message: outcome.message };
}

export function describePool(pool: ReviewerPool) {
  return {
    coolingDown: pool.coolingDown.map((entry) => ({
      adapter: entry.adapter.name,
      until: new Date(entry.until).toISOString(),
      reason: entry.reason,
    })),
    unavailable: pool.unavailable.map((entry) => ({ adapter: entry.adapter.name, reason: entry.probe.message })),
    rejoined: pool.rejoined,
  };
}

/** `2026-11-23 14:05 UTC` */
function formatUtc(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function noReviewerResult(
  pool: ReviewerPool,
  options: CodeReviewOptions,
  details: Record<string, unknown>,
): ToolResult {
  const cooling = pool.coolingDown.map(
    (entry) => `${entry.adapter.name} is cooling down until ${formatUtc(entry.until)} (${entry.reason})`,
  );
  const unavailable = pool.unavailable.map((entry) => `${entry.adapter.name}: ${entry.probe.message}`);
  if (cooling.length > 0) {
    return result(
      'error',
      `no reviewer available: ${[...cooling, ...unavailable].join('; ')}. Rerun after the cooldown, or add another CLI to code_review.cliPreference.`,
      [],
      details,
    );
  }
  const loggedOut = pool.unavailable.filter((entry) => entry.probe.kind === 'not_logged_in');
  if (loggedOut.length > 0) {
    return result('tool_unavailable', `no reviewer available: ${unavailable.join('; ')}.`, [], details);
  }
  const tried = options.cliPreference.join(', ');
  const installs = pool.unavailable.map((entry) => entry.adapter.installCommand);
  return result(
    'tool_unavailable',
    `no AI reviewer CLI is installed (tried ${tried}); install one, e.g. \`${installs[0] ?? 'npm install -g @openai/codex'}\`, or turn the review off with validation.code_review.enabled: false.`,
    [],
    { ...details, install: installs },
  );
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
