import { openProject } from '../../../core/config/open-project.js';
import { waitingLine } from '../../../core/http/github-rate-limit.js';
import { connectGithub } from '../connect.js';
import type { GraphqlClient } from '../graphql-client.js';
import { defaultRedactor, type Redact } from '../redaction.js';
import type { GithubRepository } from '../repository.js';
import { createRunEvidence, type EvidenceSource } from './check-evidence.js';
import { createRemoteEvidence, eitherEvidence } from './remote-evidence.js';
import { type CommentsOptions, type ReviewCommentsConfig, runComments } from './run-comments.js';
import { type FixCommentsOptions, runFixComments } from './run-fix-comments.js';
import { resolveRepository } from './target.js';

/** What the CLI commands hand over; tests replace the GitHub connection, the clock or the redactor. */
export interface ReviewCommandIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  write(text: string): void;
  connect?: (repository: GithubRepository, config: ReviewCommentsConfig) => Promise<GraphqlClient>;
  redact?: Redact;
  evidence?: EvidenceSource;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

type Shared = 'repoRoot' | 'cwd' | 'env' | 'config' | 'connect' | 'redact';

/** The project and GitHub connection both commands start from, and the options they pass on unchanged. */
async function setUp(io: ReviewCommandIo) {
  const { repoRoot, loaded } = await openProject({ cwd: io.cwd, env: io.env });
  const config = loaded.config.reviewComments as ReviewCommentsConfig;
  const connect =
    io.connect !== undefined
      ? (repository: GithubRepository) => io.connect!(repository, config)
      : (repository: GithubRepository) =>
          connectGithub({
            cwd: repoRoot,
            env: io.env,
            host: repository.host,
            timeoutMs: config.requestTimeout,
            rateLimitFloor: config.rateLimitFloor,
            ...(io.sleep ? { sleep: io.sleep } : {}),
            onBackoff: (waitMs, why) => process.stderr.write(waitingLine('GitHub GraphQL API', { waitMs, why })),
          });
  const shared = {
    repoRoot,
    cwd: io.cwd,
    env: io.env,
    config,
    connect,
    redact: io.redact ?? defaultRedactor(),
    ...(io.now ? { now: io.now } : {}),
  };
  return { loaded, shared };
}

export async function commentsCommand(
  flags: Omit<CommentsOptions, Shared | 'now'>,
  io: ReviewCommandIo,
): Promise<number> {
  const { shared } = await setUp(io);
  const result = await runComments({ ...flags, ...shared });
  io.write(result.text);
  return result.exitCode;
}

/** `--evidence` and `--wait-checks` override `reviewComments.checkEvidence` and `waitForChecks`. */
export interface EvidenceFlags {
  evidence?: 'local' | 'remote' | 'either' | undefined;
  waitChecks?: number | undefined;
}

export async function fixCommentsCommand(
  flags: Omit<FixCommentsOptions, Shared | 'evidence' | 'now'> & EvidenceFlags,
  io: ReviewCommandIo,
): Promise<number> {
  const { loaded, shared } = await setUp(io);
  const { evidence: evidenceFlag, waitChecks, ...fixFlags } = flags;
  const local = createRunEvidence({ repoRoot: shared.repoRoot, config: loaded.config, env: io.env });
  const kind = evidenceFlag ?? shared.config.checkEvidence;
  const remote = () =>
    createRemoteEvidence({
      connect: async () => shared.connect(await resolveRepository({ ...shared, repo: flags.repo })),
      repository: () => resolveRepository({ ...shared, repo: flags.repo }),
      requiredChecks: shared.config.requiredChecks,
      waitMs: waitChecks ?? shared.config.waitForChecks ?? 0,
      sleep: io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      now: () => (io.now ? io.now().getTime() : Date.now()),
      onWait: (line) => process.stderr.write(`${line}\n`),
      commitInHead: local.commitInHead,
    });
  const evidence =
    io.evidence ?? (kind === 'local' ? local : kind === 'remote' ? remote() : eitherEvidence(local, remote()));
  const result = await runFixComments({ ...fixFlags, ...shared, evidence });
  io.write(result.text);
  return result.exitCode;
}
