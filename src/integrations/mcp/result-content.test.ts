import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { addTestJs, FAILING_CHECK_CONFIG, MATH_JS } from '../../../test/support/failing-check.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { mcpTestClient } from '../../../test/support/mcp-client.js';
import { validators } from '../../validators/index.js';
import { createTollgateMcpServer } from './server.js';

/**
 * What a model behind Claude Code or Codex sees of a validation call: `structuredContent` alone. The SDK's client
 * checks it against the tool's advertised `outputSchema` on every call.
 */
const CONFIG = FAILING_CHECK_CONFIG;
const TEST_JS = addTestJs({ reportPass: true });

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({
    files: { 'tollgate.config.yaml': CONFIG, 'test.js': TEST_JS, 'math.js': MATH_JS },
  });
});
afterEach(async () => {
  await repo.cleanup();
});

async function connect() {
  const server = await createTollgateMcpServer({
    cwd: repo.root,
    env: repo.env,
    version: 'test',
    registry: validators,
    sessionId: 'result-content',
    log: () => {},
  });
  const client = mcpTestClient('test-client');
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { client, server };
}

interface StructuredFinding {
  id: string;
  validator: string;
  title: string;
  location?: string;
  message: string;
  excerpt?: string;
}

describe('validation results an agent can act on', () => {
  test('a failed check: the failing line, where it is defined and what to do are in structuredContent', async () => {
    await repo.write('math.js', 'exports.add = (a, b) => a - b;\n');
    const { client } = await connect();
    await client.listTools(); // the client then validates each result against the tool's outputSchema
    const answer = await client.callTool({ name: 'parallel_validation', arguments: {} });
    const structured = answer.structuredContent as {
      status: string;
      findings: StructuredFinding[];
      omittedFindings: number;
      next: string;
      runId: string;
    };
    expect(structured.status).toBe('failed');
    const [finding] = structured.findings;
    expect(finding).toMatchObject({
      validator: 'checks',
      title: 'check "unit tests" failed (exit 1)',
      location: 'tollgate.config.yaml:2',
      message: 'not ok 301 - add is broken: expected 3, got -1',
    });
    expect(finding?.excerpt).toContain('not ok 301 - add is broken: expected 3, got -1');
    expect(finding?.excerpt).toMatch(/full log: \.tollgate\/runs\/\S+\.log$/);
    expect(finding?.excerpt).not.toContain('ok 1 - adds 1 and 0\n');
    expect(structured.omittedFindings).toBe(0);
    expect(structured.next).toContain(`\`${finding?.id}\``);
    expect(structured.next).toContain('tollgate.config.yaml:2');
    expect(structured.next).not.toMatch(/above/);
    const text = (answer.content as Array<{ text: string }>)[0]!.text;
    for (const fact of [finding!.id, 'tollgate.config.yaml:2', 'not ok 301 - add is broken', structured.next]) {
      expect(text).toContain(fact);
    }
  });

  test('tools/call with arguments that are not an object is invalid params (-32602)', async () => {
    const { client } = await connect();
    for (const bad of ['x', [1], 3, null]) {
      const call = client.request(
        { method: 'tools/call', params: { name: 'parallel_validation', arguments: bad as never } },
        (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema,
      );
      await expect(call).rejects.toMatchObject({ code: -32602 });
    }
  });
});
