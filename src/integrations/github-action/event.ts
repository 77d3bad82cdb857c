import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';

/** The part of a `pull_request` / `pull_request_target` event payload the Action uses. */
const pullRequestEvent = z.object({
  pull_request: z.object({
    number: z.number().int().positive(),
    base: z.object({ ref: z.string().min(1), sha: z.string().min(1) }),
  }),
  repository: z.object({ full_name: z.string().regex(/^[^/\s]+\/[^/\s]+$/) }),
});

export interface PullRequestContext {
  number: number;
  baseRef: string;
  baseSha: string;
  owner: string;
  repo: string;
}

/**
 * Reads the PR out of an event payload; `undefined` when the event is not about a pull request
 * (push, schedule). A payload that has `pull_request` but the wrong shape is an error naming the field.
 */
export function parsePullRequestEvent(payload: unknown, source = 'GITHUB_EVENT_PATH'): PullRequestContext | undefined {
  if (typeof payload !== 'object' || payload === null || !('pull_request' in payload)) return undefined;
  const parsed = pullRequestEvent.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '(root)';
    throw new TollgateError('usage', `${source}: field "${field}" is invalid: ${issue?.message ?? 'unexpected shape'}`);
  }
  const [owner = '', repo = ''] = parsed.data.repository.full_name.split('/');
  const pr = parsed.data.pull_request;
  return { number: pr.number, baseRef: pr.base.ref, baseSha: pr.base.sha, owner, repo };
}
