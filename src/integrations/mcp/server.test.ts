import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { fakeRegistry } from '../../../test/fakes/fake-validators.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { mcpTestClient } from '../../../test/support/mcp-client.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { parallelInputSchema } from '../../core/run/trivial-declarations.js';
import { validators } from '../../validators/index.js';
import { createTollgateMcpServer } from './server.js';
import { mcpNameOf } from './tool-plan.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterEach(async () => {
  await repo.cleanup();
});

async function connect(
  options: { cwd?: string; env?: NodeJS.ProcessEnv; registry?: readonly AnyToolDefinition[] } = {},
) {
  const server = await createTollgateMcpServer({
    cwd: options.cwd ?? repo.root,
    env: { ...repo.env, ...options.env },
    version: 'test',
    registry: options.registry ?? fakeRegistry,
    sessionId: 'test-session',
    log: () => {},
  });
  const client = mcpTestClient('test-client');
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return { client, close: () => client.close() };
}

async function allEvents(): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const runsDir = join(repo.root, '.tollgate/runs');
  const events = [];
  for (const runId of (await readdir(runsDir)).sort()) {
    const text = await readFile(join(runsDir, runId, 'events.jsonl'), 'utf8');
    events.push(
      ...text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    );
  }
  return events;
}

describe('tollgate mcp', () => {
  test("tells the agent, first thing, when tollgate's Codex stop hook is installed but not trusted", async () => {
    const plain = await connect();
    expect(plain.client.getInstructions()).toBe('Validate changes with these tools before declaring work done.');
    await plain.close();
    // Installed without codex on PATH: the hook is there, its trust is not (install exits 5).
    const { installAgent } = await import('../hooks/install.js');
    await installAgent({
      agent: 'codex',
      scope: 'user',
      cwd: repo.root,
      env: { ...repo.env, PATH: '/nowhere' },
      home: repo.home,
    }).catch(() => {});
    const untrusted = await connect();
    expect(untrusted.client.getInstructions()).toBe(
      "tollgate's stop hook for Codex is installed but NOT trusted, so Codex skips it and nothing checks this work before it stops. A person must run `tollgate install codex --user` (or trust the hook in `codex` under /hooks); until then, validate with these tools before declaring work done.",
    );
    await untrusted.close();
  });

  test('lists parallel_validation with per-tool trivial declarations, one tool per validator, and validation_status', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['parallel_validation', 'code_review', 'lint', 'validation_status']);
    const parallel = tools[0]!;
    const declaration = (parallel.inputSchema.properties as Record<string, { properties: Record<string, unknown> }>)
      .trivialChangeDeclaration!;
    expect(Object.keys(declaration.properties)).toEqual(['codeReview', 'lint']);
    expect(parallel.description).toContain('Always validate security-sensitive changes');
    expect(parallel.outputSchema?.properties).toHaveProperty('tools');
    await close();
  });

  test('one active validator: that tool alone, with its own input schema', async () => {
    await repo.write('tollgate.config.yaml', 'validation:\n  lint:\n    enabled: false\n');
    await repo.commit("config: the policy is the base commit's (docs/policy.md)");
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['code_review', 'validation_status']);
    expect(Object.keys(tools[0]!.inputSchema.properties ?? {})).toEqual([
      'prTitle',
      'prDescription',
      'trivialChangeDeclaration',
    ]);
    await close();
  });

  test('a call: progress when asked, structured content plus text, events with mcpServerName', async () => {
    await repo.write('src/a.ts', 'TODO: later\n');
    const { client, close } = await connect();
    const progress: string[] = [];
    const answer = await client.callTool({ name: 'parallel_validation', arguments: { prTitle: 'Add a' } }, undefined, {
      onprogress: (update) => progress.push(`${update.progress} ${update.message}`),
    });
    expect(answer.isError).toBeUndefined();
    const structured = answer.structuredContent as { status: string; tools: Array<{ name: string; status: string }> };
    expect(structured.status).toBe('failed');
    expect(structured.tools.map((tool) => `${tool.name}:${tool.status}`)).toEqual([
      'code_review:passed',
      'lint:failed',
    ]);
    expect((answer.content as Array<{ text: string }>)[0]!.text).toMatch(/^## Validation Results\n/);
    // Numbered 1, 2, 3… in the order sent. The heartbeat ("tollgate: still running …", every 5 s) may come between
    // the messages on a loaded machine, so its lines are left out of the messages, not out of the count.
    expect(progress.map((line) => Number(line.split(' ')[0]))).toEqual(progress.map((_, index) => index + 1));
    const messages = progress.map((line) => line.slice(line.indexOf(' ') + 1));
    expect(messages.filter((message) => !/^tollgate: (still running|every validator is done)/.test(message))).toEqual([
      'tollgate: starting parallel_validation',
      'lint: reading 1 file(s)',
    ]);
    const starts = (await allEvents()).filter((event) => event.type === 'tool.execution_start');
    expect(starts.map((event) => event.data.mcpServerName)).toEqual(['tollgate', 'tollgate']);
    await close();
  });

  test('no progress notifications without a progress token', async () => {
    await repo.write('src/a.ts', 'fine\n');
    const { client, close } = await connect();
    let notifications = 0;
    client.fallbackNotificationHandler = async () => {
      notifications++;
    };
    const answer = await client.callTool({ name: 'parallel_validation', arguments: {} });
    expect((answer.structuredContent as { status: string }).status).toBe('passed');
    expect(notifications).toBe(0);
    await close();
  });

  test('invalid input is an isError result naming the field, recorded as a pipeline call', async () => {
    await repo.write('src/a.ts', 'fine\n');
    const { client, close } = await connect();
    const answer = await client.callTool({
      name: 'parallel_validation',
      arguments: { trivialChangeDeclaration: { lint: { isTrivial: 1, reason: 'x' } } },
    });
    expect(answer.isError).toBe(true);
    expect((answer.structuredContent as { summary: string }).summary).toBe(
      'parallel_validation input trivialChangeDeclaration.lint.isTrivial: Invalid input: expected boolean, received number',
    );
    await close();
  });

  test('cancellation reaches the validator through its AbortSignal, and the server keeps serving', async () => {
    await repo.write('src/a.ts', 'WAIT\n');
    const { client, close } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'parallel_validation', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (update) => {
        if (update.message?.includes('waiting for the reviewer')) controller.abort('user cancelled');
      },
    });
    await expect(call).rejects.toThrow();
    // The aborted run is recorded as interrupted (error), and the next call is answered.
    const status = await client.callTool({ name: 'validation_status', arguments: {} });
    expect((status.structuredContent as { state: string }).state).not.toBe('validated');
    await close();
  });

  test('validation_status says what the stop hook would', async () => {
    await repo.write('src/a.ts', 'fine\n');
    const { client, close } = await connect();
    const before = await client.callTool({ name: 'validation_status', arguments: {} });
    expect(before.structuredContent).toMatchObject({ state: 'never', changedFiles: 1, unresolvedFindings: 0 });
    await client.callTool({ name: 'parallel_validation', arguments: {} });
    const after = await client.callTool({ name: 'validation_status', arguments: {} });
    expect(after.structuredContent).toMatchObject({
      state: 'validated',
      next: 'Validation has passed on the current change; it may be declared done.',
    });
    await close();
  });

  test('outside a repository: an isError result, not a crash', async () => {
    const outside = await tempDir('tollgate-outside-');
    const { client, close } = await connect({ cwd: outside });
    const answer = await client.callTool({ name: 'parallel_validation', arguments: {} });
    expect(answer.isError).toBe(true);
    expect((answer.content as Array<{ text: string }>)[0]!.text).toMatch(
      /^parallel_validation: .* is not inside a git work tree; run tollgate from your repository/,
    );
    expect((await client.listTools()).tools.length).toBe(4);
    await close();
    await removeDir(outside);
  });
});

/** Every real validator switched on (`TOLLGATE_USE_<NAME>=1`), or only the one named. */
function useOnly(name?: string): NodeJS.ProcessEnv {
  return Object.fromEntries(
    validators.map((tool) => [`TOLLGATE_USE_${tool.name.toUpperCase()}`, !name || tool.name === name ? '1' : '0']),
  );
}

/** What a client should be told about a zod input schema: its JSON Schema for input, whatever wraps the object. */
function expectedJsonSchema(schema: unknown): Record<string, unknown> {
  const {
    default: _default,
    $schema: _schema,
    ...rest
  } = z.toJSONSchema(schema as z.ZodType, {
    target: 'draft-7',
    io: 'input',
  }) as Record<string, unknown>;
  return rest;
}

function advertised(tool: { inputSchema: Record<string, unknown> }): Record<string, unknown> {
  const { $schema: _schema, ...rest } = tool.inputSchema;
  return rest;
}

describe('tollgate mcp with the real validators', () => {
  test("one tool per validator; every tool's advertised input schema is its zod schema's", async () => {
    const { client, close } = await connect({ registry: validators, env: useOnly() });
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
    expect(advertised(byName.get('parallel_validation')!)).toEqual(expectedJsonSchema(parallelInputSchema(validators)));
    for (const validator of validators) {
      expect(advertised(byName.get(mcpNameOf(validator))!), validator.name).toEqual(
        expectedJsonSchema(validator.inputSchema),
      );
    }
    expect(Object.keys(byName.get('secret_scanning')!.inputSchema.properties ?? {})).toEqual(['paths']);
    expect(advertised(byName.get('validation_status')!)).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
    await close();

    // Each validator alone is offered as its own tool, with its own schema.
    for (const validator of validators) {
      const single = await connect({ registry: validators, env: useOnly(validator.name) });
      const listed = (await single.client.listTools()).tools.find((tool) => tool.name === mcpNameOf(validator));
      expect(listed, validator.name).toBeDefined();
      expect(advertised(listed!), validator.name).toEqual(expectedJsonSchema(validator.inputSchema));
      await single.close();
    }
  });

  test('bad input to any tool is an isError result saying what to fix, never "Validation passed"', async () => {
    await repo.write('src/a.ts', 'export const a = 1;\n');
    const { client, close } = await connect({ registry: validators, env: useOnly() });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['secret_scanning', { paths: 'src/a.ts' }, 'secrets input paths: Invalid input: expected array, received string'],
      ['secret_scanning', { files: ['src/a.ts'] }, 'secrets input (input): Unrecognized key: "files"'],
      [
        'dependency_advisories',
        { all: 'yes' },
        'advisories input all: Invalid input: expected boolean, received string',
      ],
      ['parallel_validation', { prTitle: 5 }, 'parallel_validation input prTitle: Invalid input: expected string'],
      [
        'validation_status',
        { verbose: true },
        'validation_status input: takes no arguments (got verbose); call it with {}',
      ],
    ];
    for (const [name, args, message] of cases) {
      const answer = await client.callTool({ name, arguments: args });
      const text = (answer.content as Array<{ text: string }>)[0]!.text;
      expect(answer.isError, name).toBe(true);
      expect(text, name).toContain(message);
      expect(text, name).not.toContain('Validation passed');
      if (name !== 'validation_status') {
        expect(answer.structuredContent, name).toMatchObject({ status: 'invalid_input' });
        expect((answer.structuredContent as { next: string }).next, name).toBe(
          `Fix the input the summary names and call \`${name}\` again.`,
        );
      }
    }
    await close();
  });
});
