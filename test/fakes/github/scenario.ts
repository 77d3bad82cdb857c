import { coreSectionsFor } from '../../../src/core/config/schema.js';
import { createGraphqlClient, type GraphqlClient } from '../../../src/integrations/github/graphql-client.js';
import { createHttpsTransport } from '../../../src/integrations/github/https-transport.js';
import { createScannerRedactor } from '../../../src/integrations/github/redaction.js';
import type { EvidenceSource } from '../../../src/integrations/github/review-threads/check-evidence.js';
import type { ReviewCommentsConfig } from '../../../src/integrations/github/review-threads/run-comments.js';
import { createTempRepo, type TempRepo } from '../../support/git-repo.js';
import { registriesWith } from '../../support/registries.js';
import { timeBudget } from '../../support/time-budget.js';
import { type FakeGithubServer, startFakeGithub } from './server.js';
import { addPullRequest, createWorld, type FakePullRequest, type FakeWorld } from './world.js';

/** A temp repository whose origin is github.com/acme/widgets, a fake GitHub with PR #7, and a client bound to it. */
export interface Scenario {
  repo: TempRepo;
  world: FakeWorld;
  pr: FakePullRequest;
  server: FakeGithubServer;
  connect: () => Promise<GraphqlClient>;
  config(overrides?: Partial<ReviewCommentsConfig>): ReviewCommentsConfig;
  sleeps: number[];
  cleanup(): Promise<void>;
}

export const passingEvidence: EvidenceSource = {
  forHead: async () => ({ status: 'passed', runId: 'run-1', at: '2026-06-01T00:00:00.000Z' }),
  commitInHead: async () => 'yes',
};

export const redact = createScannerRedactor();

export async function createScenario(): Promise<Scenario> {
  const repo = await createTempRepo({ files: { 'src/index.ts': 'export {};\n' } });
  await repo.git('remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
  const world = createWorld();
  const pr = addPullRequest(world);
  const server = await startFakeGithub(world);
  const sleeps: number[] = [];
  return {
    repo,
    world,
    pr,
    server,
    sleeps,
    connect: async () =>
      createGraphqlClient({
        transport: createHttpsTransport({ url: server.url, token: 'test-token' }),
        timeoutMs: timeBudget(10_000),
        rateLimitFloor: 10,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      }),
    config: (overrides = {}) =>
      ({ ...coreSectionsFor(registriesWith([])).reviewComments.parse({}), ...overrides }) as ReviewCommentsConfig,
    cleanup: async () => {
      await server.close();
      await repo.cleanup();
    },
  };
}
