import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { mcpTestClient } from '../../../test/support/mcp-client.js';
import { CLI_PATH } from '../../../test/support/run-cli.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { readSession } from '../../core/run/session-store.js';
import { readState } from '../../core/state/results-store.js';

/**
 * The built server over real stdio, driven by the SDK's own client, against a real repository and the real
 * validators (only `checks` on, with one command). Needs the bundle (`npm test` bundles first).
 */
const bundle = fileURLToPath(new URL('../../../dist/bundle/cli/tollgate.cjs', import.meta.url));
const built = existsSync(CLI_PATH) && existsSync(bundle);

/** The built CLI's `tollgate mcp`, as agents start it. */
function serverCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: [CLI_PATH, 'mcp'] };
}

let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({
    files: {
      'README.md': '# demo\n',
      'tollgate.config.yaml': 'checks:\n  - name: has-readme\n    run: test -f README.md\n',
    },
  });
});
afterAll(async () => {
  await repo.cleanup();
});

describe.skipIf(!built)('tollgate mcp over stdio', () => {
  test('lists tools, validates the change, and the stop hook state follows', async () => {
    await repo.write('src/a.ts', 'export const a = 1;\n');
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      ...serverCommand(),
      cwd: repo.root,
      env: { ...(repo.env as Record<string, string>), TOLLGATE_USE_CHECKS: '1' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = mcpTestClient('stdio-test');
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('validation_status');
    const validationTool = names.find(
      (name) => name !== 'validation_status' && name !== 'secret_scanning' && name !== 'dependency_advisories',
    )!;
    const answer = await client.callTool({ name: validationTool, arguments: {} });
    expect(answer.isError).toBeFalsy();
    const structured = answer.structuredContent as { status: string; tools: Array<{ name: string; status: string }> };
    expect(structured.tools.find((tool) => tool.name === 'checks')?.status).toBe('passed');
    const status = await client.callTool({ name: 'validation_status', arguments: {} });
    expect((status.structuredContent as { state: string }).state).toBe(
      structured.status === 'passed' ? 'validated' : 'failed',
    );
    await client.close();
    // Nothing but JSON-RPC went to stdout (the client would have failed to parse it); stderr is free for diagnostics.
    expect(stderr.join('')).not.toContain('internal error');
  });
});

/** A check that sleeps for as long as the file `sleep-for` says, else passes at once. */
const SLOW_CONFIG = 'checks:\n  - name: slow\n    run: if [ -f sleep-for ]; then sleep "$(cat sleep-for)"; fi\n';

async function connectTo(root: TempRepo, env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    ...serverCommand(),
    cwd: root.root,
    env: {
      ...(root.env as Record<string, string>),
      // `checks` alone, so it is offered as its own tool.
      TOLLGATE_USE_CHECKS: '1',
      TOLLGATE_USE_SECRETS: '0',
      TOLLGATE_USE_ADVISORIES: '0',
      TOLLGATE_USE_STATIC_ANALYSIS: '0',
      TOLLGATE_USE_CODE_REVIEW: '0',
      ...env,
    },
    stderr: 'pipe',
  });
  const client = mcpTestClient('stdio-test');
  await client.connect(transport);
  return client;
}

describe.skipIf(!built)('tollgate mcp over stdio: slow validators', () => {
  let slow: TempRepo;
  beforeAll(async () => {
    slow = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': SLOW_CONFIG } });
  });
  afterAll(async () => {
    await slow.cleanup();
  });

  test('a heartbeat keeps a client that resets its timeout on progress waiting for a slow check', async () => {
    // The check outlasts the client's timeout twice over, and five heartbeats fit in that timeout: both scaled by the
    // load, since a starved server's heartbeat comes late (a fixed 1 s timeout failed at load 25).
    const timeout = timeBudget(1000);
    await slow.write('sleep-for', `${Math.ceil((2 * timeout) / 1000)}\n`);
    const client = await connectTo(slow, { TOLLGATE_MCP_HEARTBEAT_MS: '200' });
    const messages: string[] = [];
    const answer = await client.callTool({ name: 'checks', arguments: {} }, undefined, {
      timeout,
      resetTimeoutOnProgress: true,
      onprogress: (update) => messages.push(update.message ?? ''),
    });
    expect((answer.structuredContent as { status: string }).status).toBe('passed');
    const beats = messages.filter((message) => message.startsWith('tollgate: still running checks ('));
    expect(beats.length).toBeGreaterThanOrEqual(5);
    expect(beats.at(-1)).toMatch(/^tollgate: still running checks \([\d.]+s elapsed\)$/);
    await client.close();
    await slow.remove('sleep-for');
  });

  test('client timeouts are not server timeouts: the circuit breaker stays open and the next call runs', async () => {
    await slow.write('sleep-for', '30\n');
    const sessionId = 'stdio-cancel';
    const client = await connectTo(slow, { TOLLGATE_SESSION_ID: sessionId });
    for (let attempt = 0; attempt < 2; attempt++) {
      const before = readSession(slow.root, `mcp-${sessionId}`).updatedAt;
      // The SDK client's timeout sends notifications/cancelled, as a user's cancel does.
      await expect(client.callTool({ name: 'checks', arguments: {} }, undefined, { timeout: 500 })).rejects.toThrow(
        /timed out/i,
      );
      // The server finishes the cancelled call on its own time; wait until it has recorded it.
      for (
        let waited = 0;
        readSession(slow.root, `mcp-${sessionId}`).updatedAt === before && waited < timeBudget(15_000);
      ) {
        await sleep(100);
        waited += 100;
      }
      expect(readSession(slow.root, `mcp-${sessionId}`).updatedAt).not.toBe(before);
    }
    expect(readSession(slow.root, `mcp-${sessionId}`).consecutiveTimeouts).toBe(0);
    // Recorded as incomplete: cancelled, not timed out, not failed.
    expect((await readState(slow.root)).tools.checks?.lastRun?.status).toBe('incomplete');
    await slow.remove('sleep-for');
    await slow.write('src/b.ts', 'export const b = 2;\n');
    const answer = await client.callTool({ name: 'checks', arguments: {} });
    expect((answer.structuredContent as { status: string }).status).toBe('passed');
    await client.close();
  });
});
