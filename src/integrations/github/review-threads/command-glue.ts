import { openProject } from '../../../core/config/open-project.js';
import { waitingLine } from '../../../core/http/github-rate-limit.js';
import { connectGithub } from '../connect.js';
import type { GraphqlClient } from '../graphql-client.js';
import { defaultRedactor, type Redact } from '../redaction.js';
import type { GithubRepository } from '../repository.js';
import { createRunEvidence, type EvidenceSource } from './check-evidence.js';
import { type CommentsOptions, type ReviewCommentsConfig, runComments } from './run-comments.js';
import { type FixCommentsOptions, runFixComments } from './run-fix-comments.js';

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

export async function fixCommentsCommand(
  flags: Omit<FixCommentsOptions, Shared | 'evidence' | 'now'>,
  io: ReviewCommandIo,
): Promise<number> {
  const { loaded, shared } = await setUp(io);
  const result = await runFixComments({
    ...flags,
    ...shared,
    evidence: io.evidence ?? createRunEvidence({ repoRoot: shared.repoRoot, config: loaded.config, env: io.env }),
  });
  io.write(result.text);
  return result.exitCode;
}
