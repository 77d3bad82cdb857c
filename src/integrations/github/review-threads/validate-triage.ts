import { TollgateError } from '../../../core/errors.js';
import type { TriagedThread, TriagePayload } from './payload-schemas.js';

/**
 * The rules the JSON Schema cannot state: the triage must cover exactly the threads the scan selected, once each,
 * and a thread that needs a human is never marked resolvable. Every problem is reported at once.
 */
export function validateTriage(
  payload: TriagePayload,
  options: { label: string; selectedThreadIds: readonly string[] },
): Map<string, TriagedThread> {
  const problems: string[] = [];
  const selected = new Set(options.selectedThreadIds);
  const byId = new Map<string, TriagedThread>();
  payload.threads.forEach((thread, index) => {
    const at = `${options.label} threads[${index}]`;
    if (byId.has(thread.threadId)) {
      problems.push(`${at}.threadId: ${JSON.stringify(thread.threadId)} is triaged twice; keep one entry per thread`);
    } else byId.set(thread.threadId, thread);
    if (!selected.has(thread.threadId)) {
      problems.push(
        `${at}.threadId: ${JSON.stringify(thread.threadId)} is not among the ${selected.size} thread(s) this scan selected; triage only the threads listed (ids start with PRRT_, not comment ids)`,
      );
    }
    if (thread.classification === 'needs_human' && !thread.requiresHumanDecision) {
      problems.push(`${at}.requiresHumanDecision: must be true when classification is "needs_human"`);
    }
    if ((thread.requiresHumanDecision || thread.classification === 'needs_human') && thread.canResolveAfterChecks) {
      problems.push(
        `${at}.canResolveAfterChecks: must be false when the thread requires a human decision; a person decides and resolves it`,
      );
    }
  });
  const missing = options.selectedThreadIds.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    problems.push(
      `${options.label} threads: omits ${missing.length} selected thread(s): ${missing.map((id) => JSON.stringify(id)).join(', ')}; triage every listed thread`,
    );
  }
  if (problems.length > 0) throw new TollgateError('usage', problems[0]!, problems.slice(1));
  return byId;
}
