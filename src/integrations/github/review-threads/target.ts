import { TollgateError } from '../../../core/errors.js';
import type { GraphqlClient } from '../graphql-client.js';
import { PULL_REQUEST_FOR_BRANCH_QUERY } from '../graphql-documents.js';
import { currentBranch, type GithubRepository, originRepository, parseRepoFlag } from '../repository.js';
import { pullRequestForBranchSchema } from './graphql-shapes.js';
import type { PullRequestRef } from './review-thread.js';
import type { ReviewState } from './state.js';

export interface TargetOptions {
  repoRoot: string;
  env: NodeJS.ProcessEnv;
  /** `--repo OWNER/NAME`. */
  repo?: string | undefined;
  /** `--pr N`. */
  pr?: number | undefined;
}

/** The repository: `--repo`, else the `origin` remote (whose host also picks GitHub Enterprise). */
export async function resolveRepository(options: TargetOptions): Promise<GithubRepository> {
  if (options.repo) {
    const named = parseRepoFlag(options.repo);
    const origin = await originRepository(options.repoRoot, options.env).catch(() => null);
    return { host: origin?.host ?? 'github.com', ...named };
  }
  return originRepository(options.repoRoot, options.env);
}

/** The PR: `--pr`, else the one the last scan of this repository looked at, else the open PR of the current branch. */
export async function resolvePullRequest(
  options: TargetOptions & { repository: GithubRepository; state: ReviewState; client: GraphqlClient },
): Promise<PullRequestRef> {
  const { repository } = options;
  const base = { owner: repository.owner, name: repository.name };
  if (options.pr !== undefined) return { ...base, number: options.pr };
  const last = options.state.lastScan?.pr;
  if (
    last &&
    last.owner.toLowerCase() === base.owner.toLowerCase() &&
    last.name.toLowerCase() === base.name.toLowerCase()
  ) {
    return { ...base, number: last.number };
  }
  const branch = await currentBranch(options.repoRoot, options.env);
  const answer = await options.client.request(
    PULL_REQUEST_FOR_BRANCH_QUERY,
    { ...base, branch },
    pullRequestForBranchSchema,
  );
  const open = answer.repository?.pullRequests.nodes ?? [];
  if (open.length === 0) {
    throw new TollgateError(
      'not_found',
      `${base.owner}/${base.name}: no open pull request for branch "${branch}"; pass --pr N`,
    );
  }
  if (open.length > 1) {
    throw new TollgateError(
      'usage',
      `${base.owner}/${base.name}: ${open.length} open pull requests for branch "${branch}" (${open.map((pr) => `#${pr.number}`).join(', ')}); pass --pr N`,
    );
  }
  return { ...base, number: open[0]!.number };
}
