import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { CLI_PATH } from '../../../test/support/run-cli.js';

/**
 * The built server over real stdio, driven by the SDK's own client, against a real repository and the real
 * validators (only `checks` on, with one command). Needs `npm run build` (the test script builds first).
 */
const dist = (path: string) => fileURLToPath(new URL(`../../../dist/${path}`, import.meta.url));
const built = existsSync(CLI_PATH) && existsSync(dist('cli/commands/mcp.js'));

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
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
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
  }, 60_000);
});
