import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type FakeOsv, startFakeOsv } from '../../../test/fakes/osv/server.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { mcpTestClient } from '../../../test/support/mcp-client.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { validators } from '../../validators/index.js';
import { createTollgateMcpServer } from './server.js';

/** Only the secret and advisory validators, so that a full run is quick and needs no agent or linter. */
const ONLY_SECRETS_AND_ADVISORIES = {
  TOLLGATE_USE_SECRETS: '1',
  TOLLGATE_USE_ADVISORIES: '1',
  TOLLGATE_USE_CHECKS: '0',
  TOLLGATE_USE_STATIC_ANALYSIS: '0',
  TOLLGATE_USE_CODE_REVIEW: '0',
};
const UNREACHABLE = 'http://127.0.0.1:9';
const token = fakeChecksumToken('ghp_', 'committed-token');

let osv: FakeOsv;
let repo: TempRepo | undefined;
beforeAll(async () => {
  osv = await startFakeOsv();
});
afterAll(async () => {
  await osv.close();
});
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

/** A clean tree: everything, the secret included, is committed. */
async function cleanRepo(osvUrl: string): Promise<TempRepo> {
  repo = await createTempRepo({
    files: {
      'README.md': '# demo\n',
      'committed.txt': `token: ${token}\n`,
      'tollgate.config.yaml': `advisories:\n  osv: { url: "${osvUrl}" }\n  timeout: 2s\n  cache: { enabled: false }\n`,
    },
  });
  return repo;
}

async function connect(root: TempRepo) {
  const server = await createTollgateMcpServer({
    cwd: root.root,
    env: { ...root.env, ...ONLY_SECRETS_AND_ADVISORIES },
    version: 'test',
    registry: validators,
    sessionId: 'scoped-session',
    log: () => {},
  });
  const client = mcpTestClient('test-client');
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

interface Structured {
  status: string;
  next: string;
  tools: Array<{ name: string; status: string }>;
  findings: Array<{ title: string; path?: string }>;
}

describe('advisories through MCP name the next step as a tool call', () => {
  test('dependency_advisories {} with no lockfile changed says how to call it with packages', async () => {
    const client = await connect(await cleanRepo(osv.url));
    await repo!.write('README.md', '# demo, edited\n');
    const answer = (await client.callTool({ name: 'dependency_advisories', arguments: {} }))
      .structuredContent as Structured & { tools: Array<{ summary: string }> };
    expect(answer.tools[0]!.summary).toBe(
      'no lockfile or manifest changed; nothing to check. To vet a dependency before adding it, call with packages: ["npm:lodash@4.17.15"]',
    );
  });
});

describe('scoped calls check what they were asked about, whatever the change set', () => {
  test('dependency_advisories {packages} on a clean tree, and again after a full pass, queries the package', async () => {
    const client = await connect(await cleanRepo(osv.url));
    const ask = () =>
      client.callTool({ name: 'dependency_advisories', arguments: { packages: ['npm:lodash@4.17.15'] } });
    const first = (await ask()).structuredContent as Structured;
    expect(osv.queries).toContain('npm/lodash@4.17.15');
    expect(first.status).toBe('failed');
    expect(first.findings.map((finding) => finding.title).join('\n')).toContain('lodash');
    expect(first.next).not.toContain('may be declared done');

    // A full run on the clean tree, then the same question: asked again, not answered from the full run.
    await client.callTool({ name: 'parallel_validation', arguments: {} });
    const queried = osv.queries.length;
    const second = (await ask()).structuredContent as Structured;
    expect(osv.queries.length).toBeGreaterThan(queried);
    expect(second.status).toBe('failed');
    await client.close();
  });

  test('dependency_advisories {packages} says unavailable when no advisory source answers', async () => {
    const client = await connect(await cleanRepo(UNREACHABLE));
    const answer = await client.callTool({
      name: 'dependency_advisories',
      arguments: { packages: ['npm:lodash@4.17.15'] },
    });
    const structured = answer.structuredContent as Structured;
    expect(structured.tools[0]!.status).toBe('tool_unavailable');
    expect(structured.next).not.toContain('may be declared done');
    expect((answer.content as Array<{ text: string }>)[0]!.text).toMatch(/unavailable|unreachable|could not/i);
    await client.close();
  });

  test('secret_scanning {paths} reports the secret in a committed, unchanged file', async () => {
    const client = await connect(await cleanRepo(osv.url));
    const answer = await client.callTool({ name: 'secret_scanning', arguments: { paths: ['committed.txt'] } });
    const structured = answer.structuredContent as Structured;
    expect(structured.status).toBe('failed');
    expect(structured.findings.map((finding) => finding.path)).toEqual(['committed.txt']);
    expect(JSON.stringify(answer)).not.toContain(token);
    const status = await client.callTool({ name: 'validation_status', arguments: {} });
    // The tree is clean: nothing to validate; the scoped finding does not make the change fail.
    expect((status.structuredContent as { state: string }).state).toBe('validated');
    await client.close();
  });

  test('on a clean tree, bad input is still invalid input, never "no changes"', async () => {
    const client = await connect(await cleanRepo(osv.url));
    const answer = await client.callTool({ name: 'secret_scanning', arguments: { paths: 'committed.txt' } });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent).toMatchObject({ status: 'invalid_input' });
    await client.close();
  });

  test('secret_scanning {paths} refuses a path outside the repository', async () => {
    const client = await connect(await cleanRepo(osv.url));
    const answer = await client.callTool({ name: 'secret_scanning', arguments: { paths: ['../elsewhere.txt'] } });
    expect(answer.isError).toBe(true);
    expect((answer.content as Array<{ text: string }>)[0]!.text).toContain('is outside the repository');
    await client.close();
  });
});
