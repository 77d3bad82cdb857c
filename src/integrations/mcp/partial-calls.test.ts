import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { mcpTestClient } from '../../../test/support/mcp-client.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { validators } from '../../validators/index.js';
import { createTollgateMcpServer } from './server.js';

/**
 * A single validator's tool that passes tells the agent what it covered and what the gate still needs, in agreement
 * with `validation_status` (and the stop hook, which read the same state): only a run of every enabled validator may
 * say the change may be declared done. Through the SDK's own client, with the real validators.
 */
const CHECKS_AND_SECRETS = {
  TOLLGATE_USE_CHECKS: '1',
  TOLLGATE_USE_SECRETS: '1',
  TOLLGATE_USE_ADVISORIES: '0',
  TOLLGATE_USE_STATIC_ANALYSIS: '0',
  TOLLGATE_USE_CODE_REVIEW: '0',
};

interface Structured {
  status: string;
  summary: string;
  next: string;
  runId: string | null;
}

let repo: TempRepo;
let client: Client;
beforeAll(async () => {
  repo = await createTempRepo({
    files: {
      'README.md': '# demo\n',
      'tollgate.config.yaml': 'checks:\n  - name: has-readme\n    run: test -f README.md\n',
    },
  });
  await repo.write('README.md', '# demo, changed\n');
  const server = await createTollgateMcpServer({
    cwd: repo.root,
    env: { ...repo.env, ...CHECKS_AND_SECRETS },
    version: 'test',
    registry: validators,
    sessionId: 'partial-calls',
    log: () => {},
  });
  client = mcpTestClient('test-client');
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
});
afterAll(async () => {
  await client.close();
  await repo.cleanup();
});

async function call(name: string) {
  const answer = await client.callTool({ name, arguments: {} });
  return {
    structured: answer.structuredContent as Structured,
    text: (answer.content as Array<{ text: string }>)[0]!.text,
  };
}

async function gateState(): Promise<string> {
  const status = await client.callTool({ name: 'validation_status', arguments: {} });
  return (status.structuredContent as { state: string }).state;
}

test('a single validator that passes says what is still needed; only the complete run says "done"', async () => {
  const checks = await call('checks');
  const stillNeeded = 'checks passed. Still needed before done: parallel_validation (secrets not run on this tree).';
  expect(checks.structured.status).toBe('passed');
  expect(checks.structured.next).toBe(stillNeeded);
  expect(checks.structured.summary).toBe(stillNeeded);
  expect(checks.text).toContain(stillNeeded);
  expect(checks.text).not.toContain('may be declared done');
  expect(await gateState()).not.toBe('validated');

  // Every validator has now run on this tree, one at a time: still not one run on one snapshot.
  const secrets = await call('secret_scanning');
  expect(secrets.structured.next).toBe(
    'secrets passed. Still needed before done: parallel_validation (each validator ran on this tree, but only a run of all of them on one snapshot counts).',
  );
  expect(await gateState()).not.toBe('validated');

  const all = await call('parallel_validation');
  expect(all.structured.next).toBe('Validation passed. The change may be declared done.');
  expect(await gateState()).toBe('validated');

  // After the complete run, a single tool agrees with validation_status, and says why.
  const again = await call('checks');
  expect(again.structured.next).toBe(
    `checks passed, and run ${all.structured.runId} of every enabled validator already passed this same change: it may be declared done.`,
  );
});

test('after a complete run failed on another validator, a pass of one says which did not pass', async () => {
  await repo.write('deploy.env', `GITHUB_TOKEN=${fakeChecksumToken('ghp_', 'partial-calls')}\n`);
  expect((await call('parallel_validation')).structured.status).toBe('failed');
  const checks = await call('checks');
  expect(checks.structured.next).toBe(
    'checks passed. Still needed before done: parallel_validation (secrets did not pass on it).',
  );
  expect(await gateState()).toBe('failed');
});
