import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fakeRegistry } from '../../../test/fakes/fake-validators.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { mcpTestClient } from '../../../test/support/mcp-client.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { updateSession } from '../../core/run/session-store.js';
import { readState } from '../../core/state/results-store.js';
import { validators } from '../../validators/index.js';
import { createTollgateMcpServer } from './server.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterEach(async () => {
  await repo.cleanup();
});

async function connect(options: { env?: NodeJS.ProcessEnv; registry?: readonly AnyToolDefinition[] } = {}) {
  const server = await createTollgateMcpServer({
    cwd: repo.root,
    env: { ...repo.env, ...options.env },
    version: 'test',
    registry: options.registry ?? fakeRegistry,
    sessionId: 'conformance',
    heartbeatMs: 100,
    log: () => {},
  });
  const client = mcpTestClient('conformance-client');
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

/** Every real validator on. */
const ALL_ON = Object.fromEntries(validators.map((tool) => [`TOLLGATE_USE_${tool.name.toUpperCase()}`, '1']));

describe('MCP conformance with what real clients do', () => {
  test('annotations tell the truth: commands and agents are not read-only; network tools are open-world', async () => {
    const client = await connect({ registry: validators, env: ALL_ON });
    const annotations = Object.fromEntries(
      (await client.listTools()).tools.map((tool) => [tool.name, tool.annotations]),
    );
    expect(annotations.parallel_validation).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(annotations.checks).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(annotations.code_review).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(annotations.static_analysis).toMatchObject({ readOnlyHint: false });
    expect(annotations.dependency_advisories).toEqual({ readOnlyHint: true, openWorldHint: true });
    expect(annotations.secret_scanning).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(annotations.validation_status).toEqual({ readOnlyHint: true, openWorldHint: false });
    await client.close();

    // Secret verification asks providers: then secret scanning reaches the network too.
    // Verification is the user's to turn on (a repository's config may not): the environment does it here.
    const verifying = await connect({ registry: validators, env: { ...ALL_ON, TOLLGATE_VERIFY: '1' } });
    const secrets = (await verifying.listTools()).tools.find((tool) => tool.name === 'secret_scanning');
    expect(secrets?.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    await verifying.close();
  });

  test('an unknown tool and arguments that are not an object are JSON-RPC invalid-params errors', async () => {
    const client = await connect();
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(McpError);
    expect((unknown as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((unknown as McpError).message).toContain('Unknown tool: no_such_tool');
    const notObject = await client
      .request(
        { method: 'tools/call', params: { name: 'validation_status', arguments: 'not an object' } } as never,
        CallToolResultSchema,
      )
      .catch((error: unknown) => error);
    expect((notObject as McpError).code).toBe(ErrorCode.InvalidParams);
    await client.close();
  });

  test('listChanged: a config change that changes the tools is announced; a call by the old schema still runs', async () => {
    await repo.write('src/a.ts', 'fine\n');
    const client = await connect();
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    let announced = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      announced++;
    });
    await client.callTool({ name: 'validation_status', arguments: {} });
    expect(announced).toBe(0);

    // The config is policy (docs/policy.md): an edit applies once it is in the base, here a commit on main.
    await repo.write('tollgate.config.yaml', 'validation:\n  lint:\n    enabled: false\n');
    await repo.git('add', 'tollgate.config.yaml');
    await repo.git('commit', '-q', '-m', 'switch lint off', '--', 'tollgate.config.yaml');
    await client.callTool({ name: 'validation_status', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(announced).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['code_review', 'validation_status']);

    // The client still holds the earlier list: parallel_validation, with a declaration for lint.
    const answer = await client.callTool({
      name: 'parallel_validation',
      arguments: { trivialChangeDeclaration: { lint: { isTrivial: true, reason: 'docs only' } } },
    });
    expect(answer.isError).toBeFalsy();
    const structured = answer.structuredContent as { status: string; tools: Array<{ name: string }> };
    expect(structured.status).toBe('passed');
    expect(structured.tools.map((tool) => tool.name)).toEqual(['code_review']);
    const lint = await client.callTool({ name: 'lint', arguments: {} });
    expect(lint.isError).toBeFalsy();
    expect(JSON.stringify(lint.content)).not.toContain('config changed');
    await client.close();
  });

  test('the heartbeat names only validators still running; a cancelled call is recorded as incomplete', async () => {
    await repo.write('src/a.ts', 'WAIT\n');
    const client = await connect();
    const controller = new AbortController();
    const beats: string[] = [];
    const call = client.callTool({ name: 'parallel_validation', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (update) => {
        const message = update.message ?? '';
        if (message.startsWith('tollgate: still running')) beats.push(message);
        // lint finishes at once; code_review waits until cancelled. Once lint is done, the heartbeat stops naming it.
        if (/^tollgate: still running code_review \(/.test(message)) controller.abort('user cancelled');
      },
    });
    await expect(call).rejects.toThrow();
    expect(beats.at(-1)).toMatch(/^tollgate: still running code_review \([\d.]+m?s elapsed\)$/);
    // The server finishes the cancelled call on its own; wait until it has stored it.
    let state = await readState(repo.root);
    for (let waited = 0; !state.tools.code_review?.lastRun && waited < timeBudget(10_000); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await readState(repo.root);
    }
    expect(state.tools.code_review?.lastRun?.status).toBe('incomplete');
    await client.close();
  });

  test('validation_status says when the circuit breaker has tripped', async () => {
    await repo.write('src/a.ts', 'fine\n');
    await updateSession(repo.root, 'mcp-conformance', (session) => {
      session.consecutiveTimeouts = 2;
    });
    const client = await connect();
    const status = await client.callTool({ name: 'validation_status', arguments: {} });
    expect(status.structuredContent).toMatchObject({ circuitBreakerTripped: true, consecutiveTimeouts: 2 });
    expect((status.structuredContent as { next: string }).next).toMatch(/^The circuit breaker has tripped/);
    await client.close();
  });
});
