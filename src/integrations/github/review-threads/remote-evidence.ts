import type { GraphqlClient } from '../graphql-client.js';
import type { GithubRepository } from '../repository.js';
import { type EvidenceSource, oncePerHead } from './check-evidence.js';
import { type CiCheck, judgeChecks, readCommitChecks } from './ci-checks.js';
import type { CheckEvidence } from './fix-policy.js';

export interface RemoteEvidenceOptions {
  connect: () => Promise<GraphqlClient>;
  repository: () => Promise<GithubRepository>;
  /** Check names that must pass (config `reviewComments.requiredChecks`); empty: every reported check. */
  requiredChecks: readonly string[];
  /** How long to wait for running checks (`--wait-checks`); 0 answers at once. */
  waitMs: number;
  pollMs?: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** A line per wait, for stderr. */
  onWait?: (line: string) => void;
  /** Whether a commit is in the head: the local repository answers this (see `createRunEvidence`). */
  commitInHead: EvidenceSource['commitInHead'];
}

/** GitHub's own CI pages refresh about this often; polling faster only spends rate limit. */
const DEFAULT_POLL_MS = 15_000;

const listed = (names: readonly string[]) =>
  names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;

/**
 * Evidence from the pushed head's GitHub check runs and commit statuses, for teams whose tests run only in CI.
 * Waits for running checks up to `waitMs`, polling; a failed check answers at once.
 */
export function createRemoteEvidence(options: RemoteEvidenceOptions): EvidenceSource {
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;

  const lookUp = async (headSha: string): Promise<CheckEvidence> => {
    const short = headSha.slice(0, 12);
    const deadline = options.now() + options.waitMs;
    const [client, repository] = await Promise.all([options.connect(), options.repository()]);
    for (;;) {
      const checks: CiCheck[] = await readCommitChecks(client, repository, headSha);
      const judgement = judgeChecks(checks, options.requiredChecks);
      switch (judgement.kind) {
        case 'passed':
          return { status: 'passed', runId: `GitHub checks on ${short} (${judgement.count})`, at: judgement.at };
        case 'failed':
          return {
            status: 'failed',
            detail: `GitHub checks did not pass on ${short}: ${listed(judgement.names)}; fix them and push, or rerun them`,
          };
      }
      const left = deadline - options.now();
      if (left <= 0) {
        if (judgement.kind === 'pending') {
          return {
            status: 'incomplete',
            detail: `GitHub checks still running on ${short}: ${listed(judgement.names)}; wait for them (--wait-checks 15m)`,
          };
        }
        return {
          status: 'missing',
          detail:
            judgement.names.length > 0
              ? `GitHub reports no ${listed(judgement.names)} on ${short} (reviewComments.requiredChecks)`
              : `GitHub reports no check runs or statuses on ${short}; push to a branch your CI runs on`,
        };
      }
      const wait = Math.min(pollMs, left);
      const waitingFor = judgement.names.length > 0 ? listed(judgement.names) : 'the first check';
      options.onWait?.(
        `tollgate: waiting for GitHub checks on ${short} (${waitingFor}); ${Math.ceil(left / 1000)} s left`,
      );
      await options.sleep(wait);
    }
  };

  return {
    forHead: oncePerHead(lookUp, 'could not read the GitHub checks'),
    commitInHead: options.commitInHead,
  };
}

/** Local run first (no request), then CI: either vouches; when neither does, both reasons are given. */
export function eitherEvidence(local: EvidenceSource, remote: EvidenceSource): EvidenceSource {
  return {
    async forHead(headSha) {
      const fromRun = await local.forHead(headSha);
      if (fromRun.status === 'passed') return fromRun;
      const fromCi = await remote.forHead(headSha);
      if (fromCi.status === 'passed') return fromCi;
      return { status: fromCi.status, detail: `${fromRun.detail}; and ${fromCi.detail}` };
    },
    commitInHead: local.commitInHead,
  };
}
