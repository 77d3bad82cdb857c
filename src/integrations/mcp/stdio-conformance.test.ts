import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  ErrorCode,
  type McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FakeOsv, startFakeOsv } from '../../../test/fakes/osv/server.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { mcpTestClient } from '../../../test/support/mcp-client.js';
import { CLI_PATH } from '../../../test/support/run-cli.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { updateSession } from '../../core/run/session-store.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';

/**
 * The built CLI's `tollgate mcp` over real stdio, driven by the SDK's own client as agents drive it: one tool per
 * validator, truthful annotations, JSON-RPC errors where the spec asks for them, scoped calls on a clean tree, the
 * tool list following the config, and the circuit breaker told. Needs `npm run build`.
 */
const built = existsSync(CLI_PATH);
const token = fakeChecksumToken('ghp_', 'stdio-committed');
const ALL_ON = {
  TOLLGATE_USE_CHECKS: '1',
  TOLLGATE_USE_SECRETS: '1',
  TOLLGATE_USE_ADVISORIES: '1',
  TOLLGATE_USE_STATIC_ANALYSIS: '1',
  TOLLGATE_USE_CODE_REVIEW: '1',
};

let osv: FakeOsv;
let repo: TempRepo;
beforeAll(async () => {
  osv = await startFakeOsv();
  // A clean tree: the secret and the config are committed.
  repo = await createTempRepo({
    files: {
      'README.md': '# demo\n',
      'committed.txt': `token: ${token}\n`,
      'tollgate.config.yaml': configText(),
    },
  });
});
afterAll(async () => {
  await repo.cleanup();
  await osv.close();
});

function configText(extra = ''): string {
  return `advisories:\n  osv: { url: "${osv.url}" }\n  cache: { enabled: false }\nchecks:\n  - name: has-readme\n    run: test -f README.md\n${extra}`;
}

async function connect(env: Record<string, string> = ALL_ON): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'mcp'],
    cwd: repo.root,
    env: { ...(repo.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  const client = mcpTestClient('stdio-conformance');
  await client.connect(transport);
  return client;
}

describe.skipIf(!built)('tollgate mcp over stdio: what real clients see', () => {
  test('one tool per validator, annotations that tell the truth, invalid params as JSON-RPC errors', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'parallel_validation',
      'dependency_advisories',
      'checks',
      'code_review',
      'secret_scanning',
      'static_analysis',
      'validation_status',
    ]);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('parallel_validation')?.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(byName.get('dependency_advisories')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(byName.get('validation_status')?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);

    const unknown = (await client.callTool({ name: 'nope', arguments: {} }).catch((error) => error)) as McpError;
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
    const notObject = (await client
      .request({ method: 'tools/call', params: { name: 'checks', arguments: [1] } } as never, CallToolResultSchema)
      .catch((error) => error)) as McpError;
    expect(notObject.code).toBe(ErrorCode.InvalidParams);
    await client.close();
  });

  test('on a clean tree, scoped calls check the package and the committed file they name', async () => {
    const client = await connect();
    const advisories = await client.callTool({
      name: 'dependency_advisories',
      arguments: { packages: ['npm:lodash@4.17.15'] },
    });
    expect(osv.queries).toContain('npm/lodash@4.17.15');
    expect((advisories.structuredContent as { status: string }).status).toBe('failed');
    const secrets = await client.callTool({ name: 'secret_scanning', arguments: { paths: ['committed.txt'] } });
    const structured = secrets.structuredContent as {
      status: string;
      findings: Array<{ path?: string }>;
    };
    expect(structured.status).toBe('failed');
    expect(structured.findings.map((finding) => finding.path)).toEqual(['committed.txt']);
    expect(JSON.stringify(secrets)).not.toContain(token);
    await client.close();
  });

  test('the tool list follows the config, announced with list_changed; validation_status tells a tripped breaker', async () => {
    const sessionId = 'stdio-conformance';
    // A change that is not validated yet, so validation_status has something to say besides "passed".
    await repo.write('pending.txt', 'a change\n');
    await updateSession(repo.root, `mcp-${sessionId}`, (session) => {
      session.consecutiveTimeouts = 2;
    });
    // No switch for code_review: the config decides, and the config is about to change.
    const client = await connect({
      TOLLGATE_USE_CHECKS: '1',
      TOLLGATE_USE_SECRETS: '1',
      TOLLGATE_USE_ADVISORIES: '1',
      TOLLGATE_USE_STATIC_ANALYSIS: '0',
      TOLLGATE_SESSION_ID: sessionId,
    });
    let announced = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      announced++;
    });
    // The config is policy (docs/policy.md): an edit applies once it is in the base, here a commit on main.
    await commitConfig(configText('validation:\n  code_review: { enabled: true }\n'));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('code_review');
    // code_review is off by default, so that listing was itself a change, announced before its answer.
    expect(announced).toBe(1);
    announced = 0;
    await commitConfig(configText('validation:\n  code_review: { enabled: false }\n'));
    const status = await client.callTool({ name: 'validation_status', arguments: {} });
    expect(status.structuredContent).toMatchObject({ circuitBreakerTripped: true });
    expect((status.structuredContent as { next: string }).next).toContain('circuit breaker has tripped');
    for (let waited = 0; announced === 0 && waited < timeBudget(2_000); waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    expect(announced).toBe(1);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('code_review');
    await client.close();
    await commitConfig(configText());
    await repo.remove('pending.txt');
  });
});

describe.skipIf(!built)('tollgate mcp over stdio: JSON-RPC as the spec says', () => {
  test('a line that is not JSON gets a parse error with id null; requests before initialize are refused', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'mcp'], {
      cwd: repo.root,
      env: { ...repo.env, ...ALL_ON },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const send = (line: string) => child.stdin.write(`${line}\n`);
    const next = async () => JSON.parse((await replies.next()).value as string) as Record<string, unknown>;

    send('this is not json');
    expect(await next()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: ErrorCode.ParseError, message: expect.stringContaining('Parse error') },
    });
    send(JSON.stringify({ jsonrpc: '2.0', id: 7, nothing: 'here' }));
    expect(await next()).toMatchObject({ id: 7, error: { code: ErrorCode.InvalidRequest } });
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
    expect(await next()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: 'Server not initialized: send initialize before tools/list' },
    });
    send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }));
    expect(await next()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });

    const clientInfo = { name: 'raw', version: '1.0.0' };
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo },
      }),
    );
    expect(await next()).toMatchObject({ id: 3, result: { serverInfo: { name: 'tollgate' } } });
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} }));
    const listed = await next();
    expect(listed).toMatchObject({ id: 4, result: { tools: expect.arrayContaining([expect.anything()]) } });
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
  });
});

async function commitConfig(text: string): Promise<void> {
  await repo.write('tollgate.config.yaml', text);
  await repo.git('add', 'tollgate.config.yaml');
  await repo.git('commit', '-q', '-m', 'config', '--', 'tollgate.config.yaml');
  await repo.publish();
  // The config as the base's, as in a fresh clone of the upstream (no run pinned a base, no reflog): a fetch alone
  // moves no base an earlier run pinned here (docs/gate.md, "The base").
  await repo.remove('.tollgate/history.json');
  await repo.git('reflog', 'expire', '--expire=now', '--all');
}
