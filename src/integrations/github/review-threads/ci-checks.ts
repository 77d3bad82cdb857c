import { z } from 'zod';
import type { GraphqlClient } from '../graphql-client.js';
import { COMMIT_CHECKS_QUERY } from '../graphql-documents.js';
import type { GithubRepository } from '../repository.js';

/** One CI result on a commit, as GitHub's status-check rollup reports it: a check run or a commit status. */
export interface CiCheck {
  name: string;
  /** `skipped`: completed without running (SKIPPED, NEUTRAL): never a pass, and no failure of a check not required. */
  state: 'passed' | 'pending' | 'failed' | 'skipped';
  /** GitHub's own word for it: SUCCESS, FAILURE, IN_PROGRESS… */
  githubState: string;
  /** When it finished (check run) or was posted (status); null while it runs. */
  at: string | null;
}

const checkRunSchema = z.object({
  __typename: z.literal('CheckRun'),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullable().optional(),
  completedAt: z.string().nullable().optional(),
});
const statusContextSchema = z.object({
  __typename: z.literal('StatusContext'),
  context: z.string(),
  state: z.string(),
  createdAt: z.string().nullable().optional(),
});

const commitChecksSchema = z.object({
  repository: z
    .object({
      object: z
        .object({
          __typename: z.string(),
          statusCheckRollup: z
            .object({
              contexts: z.object({
                pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
                nodes: z.array(z.union([checkRunSchema, statusContextSchema]).nullable()),
              }),
            })
            .nullable()
            .optional(),
        })
        .nullable(),
    })
    .nullable(),
});

/**
 * Only a check that ran and succeeded vouches for a commit. A skipped, neutral, cancelled, timed-out, stale or
 * action-required run (or a conclusion GitHub adds later) examined nothing we can trust, so it never passes.
 */
const PASSING_CONCLUSION = 'SUCCESS';
const NOT_RUN_CONCLUSIONS = new Set(['SKIPPED', 'NEUTRAL']);
const FAILED_STATUSES = new Set(['FAILURE', 'ERROR']);
/** 10 pages of 100: more contexts than any real commit carries; beyond that the rest are not read. */
const MAX_PAGES = 10;

function fromNode(node: z.output<typeof checkRunSchema> | z.output<typeof statusContextSchema>): CiCheck {
  if (node.__typename === 'CheckRun') {
    const conclusion = node.conclusion ?? null;
    if (node.status !== 'COMPLETED' || conclusion === null) {
      return { name: node.name, state: 'pending', githubState: node.status, at: null };
    }
    return {
      name: node.name,
      state: conclusion === PASSING_CONCLUSION ? 'passed' : NOT_RUN_CONCLUSIONS.has(conclusion) ? 'skipped' : 'failed',
      githubState: conclusion,
      at: node.completedAt ?? null,
    };
  }
  const state = node.state === 'SUCCESS' ? 'passed' : FAILED_STATUSES.has(node.state) ? 'failed' : 'pending';
  return { name: node.context, state, githubState: node.state, at: node.createdAt ?? null };
}

/** Every check run and status GitHub holds for `sha`; throws GithubError, or a plain Error when the commit is unknown. */
export async function readCommitChecks(
  client: GraphqlClient,
  repository: GithubRepository,
  sha: string,
): Promise<CiCheck[]> {
  const checks: CiCheck[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const data: z.output<typeof commitChecksSchema> = await client.request(
      COMMIT_CHECKS_QUERY,
      { owner: repository.owner, name: repository.name, oid: sha, contextsCursor: cursor },
      commitChecksSchema,
    );
    const object = data.repository?.object;
    if (object?.__typename !== 'Commit') {
      throw new Error(`GitHub has no commit ${sha.slice(0, 12)} in ${repository.owner}/${repository.name}; push it`);
    }
    const contexts = object.statusCheckRollup?.contexts;
    if (!contexts) break;
    for (const node of contexts.nodes) if (node) checks.push(fromNode(node));
    if (!contexts.pageInfo.hasNextPage || !contexts.pageInfo.endCursor) break;
    cursor = contexts.pageInfo.endCursor;
  }
  return latestPerName(checks);
}

/** A re-run leaves the earlier result in the rollup: the newest one per name counts (a running one is newest). */
function latestPerName(checks: readonly CiCheck[]): CiCheck[] {
  const byName = new Map<string, CiCheck>();
  for (const check of checks) {
    const known = byName.get(check.name);
    if (!known || newer(check, known)) byName.set(check.name, check);
  }
  return [...byName.values()];
}

function newer(a: CiCheck, b: CiCheck): boolean {
  if (a.at === null) return true;
  if (b.at === null) return false;
  return a.at > b.at;
}

export type ChecksJudgement =
  | { kind: 'passed'; count: number; at: string }
  | { kind: 'failed'; names: string[] }
  | { kind: 'pending'; names: string[] }
  | { kind: 'missing'; names: string[] };

/** `lint (skipped)`: a check that did not pass, with GitHub's conclusion, so "did not pass" is not read as "failed". */
const withConclusion = (check: CiCheck) => `${check.name} (${check.githubState.toLowerCase().replaceAll('_', ' ')})`;

/**
 * Whether the CI on a commit vouches for it. With `required` names, each must be reported and pass; without, every
 * reported check must pass and there must be at least one. Only SUCCESS passes: a counted check that was skipped or
 * neutral blocks. A failed, cancelled, timed-out, stale or action-required check fails it either way: a red CI is
 * never evidence, whatever the branch protection requires.
 */
export function judgeChecks(checks: readonly CiCheck[], required: readonly string[]): ChecksJudgement {
  const counted = required.length > 0 ? checks.filter((check) => required.includes(check.name)) : checks;
  const failed = checks
    .filter((check) => check.state === 'failed' || (check.state === 'skipped' && counted.includes(check)))
    .map(withConclusion);
  if (failed.length > 0) return { kind: 'failed', names: failed };
  const missing = required.filter((name) => !checks.some((check) => check.name === name));
  const pending = counted.filter((check) => check.state === 'pending').map((check) => check.name);
  if (pending.length > 0) return { kind: 'pending', names: pending };
  if (missing.length > 0) return { kind: 'missing', names: missing };
  if (counted.length === 0) return { kind: 'missing', names: [] };
  const at = counted.map((check) => check.at ?? '').reduce((latest, time) => (time > latest ? time : latest), '');
  return { kind: 'passed', count: counted.length, at };
}
