import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { registriesWith } from '../../../test/support/registries.js';
import { staticChangeSet } from '../../../test/support/static-change-set.js';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { buildConfigSchema, type TollgateConfig } from '../config/schema.js';
import type { EventDataByType, EventType } from '../events/types.js';
import { result } from '../result.js';
import type { EventSink } from './event-sink.js';
import { executeTool, type PipelineEnvironment } from './execute-tool.js';
import { type AnyToolDefinition, defineTool } from './tool.js';

const echoTool = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Returns its input message as the summary.',
  configKey: 'echo',
  optionsSchema: z.object({ prefix: z.string().default('') }).prefault({}),
  inputSchema: z.object({ message: z.string().default('hello') }).strict(),
  permissions: ['runCommands'],
  enabledByDefault: true,
  run: async (ctx) => {
    ctx.progress('echoing');
    return result('passed', `${ctx.options.prefix}${ctx.input.message}`);
  },
});

const sleepyTool = defineTool({
  name: 'sleepy',
  title: 'Sleepy',
  description: 'Waits until aborted.',
  configKey: 'sleepy',
  optionsSchema: z.object({}).prefault({}),
  inputSchema: z.object({}),
  permissions: [],
  enabledByDefault: true,
  run: (ctx) =>
    new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(result('passed', 'stopped early')))),
});

const throwingTool = defineTool({
  name: 'throwing',
  title: 'Throwing',
  description: 'Throws.',
  configKey: 'throwing',
  optionsSchema: z.object({}).prefault({}),
  inputSchema: z.object({}),
  permissions: [],
  enabledByDefault: true,
  run: async () => {
    throw new Error('boom\nwith a second line');
  },
});

const tools: AnyToolDefinition[] = [echoTool, sleepyTool, throwingTool];

function configWith(overrides: Record<string, unknown> = {}): TollgateConfig {
  return buildConfigSchema(registriesWith(tools)).parse(overrides) as TollgateConfig;
}

function collectingSink(): EventSink & { events: { type: EventType; data: unknown }[] } {
  const events: { type: EventType; data: unknown }[] = [];
  return {
    events,
    emit<T extends EventType>(type: T, data: EventDataByType[T]) {
      events.push({ type, data });
    },
  };
}

describe('executeTool', () => {
  let dir: string;
  let sink: ReturnType<typeof collectingSink>;
  beforeEach(async () => {
    dir = await tempDir('tollgate-pipeline-');
    sink = collectingSink();
  });
  afterEach(() => removeDir(dir));

  function env(config: TollgateConfig = configWith(), extra: Partial<PipelineEnvironment> = {}): PipelineEnvironment {
    return {
      repoRoot: dir,
      changeSet: staticChangeSet(dir, { 'a.txt': 'a\n' }),
      config,
      tools,
      events: sink,
      runDir: join(dir, 'run'),
      deadline: Date.now() + 30_000,
      ...extra,
    };
  }

  test('runs a tool with its options and input and records start, progress and completion', async () => {
    const execution = await executeTool(
      { toolName: 'Echo', arguments: { message: 'hi' } },
      env(configWith({ echo: { prefix: '> ' } })),
    );
    expect(execution.result).toEqual({ status: 'passed', summary: '> hi', findings: [] });
    expect(sink.events.map((event) => event.type)).toEqual([
      'tool.execution_start',
      'permission.requested',
      'permission.completed',
      'tool.execution_progress',
      'tool.execution_complete',
    ]);
    expect(sink.events.at(-1)?.data).toMatchObject({ toolName: 'echo', success: true });
  });

  test("a call a person asked for directly is recorded as user-requested before it starts; an agent's is not", async () => {
    await executeTool({ toolName: 'echo', arguments: { message: 'hi' }, userRequested: true }, env());
    const [requested, started] = sink.events.map((event) => ({ type: event.type, data: event.data as object }));
    expect(requested?.type).toBe('tool.user_requested');
    expect(requested?.data).toEqual({ toolCallId: expect.any(String), toolName: 'echo', arguments: { message: 'hi' } });
    expect(started).toMatchObject({
      type: 'tool.execution_start',
      data: { toolCallId: (requested?.data as { toolCallId?: string } | undefined)?.toolCallId },
    });
    sink.events.length = 0;
    await executeTool({ toolName: 'echo', arguments: { message: 'hi' }, mcpServerName: 'tollgate' }, env());
    expect(sink.events.some((event) => event.type === 'tool.user_requested')).toBe(false);
  });

  test.each([
    ['an unknown tool', { toolName: 'nope' }, 'unknown tool "nope"; expected one of echo, sleepy, throwing'],
    [
      'a wrong argument type',
      { toolName: 'echo', arguments: { message: 3 } },
      'echo input message: Invalid input: expected string, received number',
    ],
    [
      'an unknown argument',
      { toolName: 'echo', arguments: { mesage: 'x' } },
      'echo input (input): Unrecognized key: "mesage"',
    ],
  ])('%s is invalid_input', async (_name, call, summary) => {
    const execution = await executeTool(call, env());
    expect(execution.result).toMatchObject({ status: 'invalid_input', summary });
    expect(sink.events.at(-1)).toMatchObject({ type: 'tool.execution_complete', data: { success: false } });
  });

  test('a preToolUse hook that exits 2 denies the call with its stderr as the reason', async () => {
    const config = configWith({ hooks: { preToolUse: [{ run: 'echo "not on Fridays" >&2; exit 2' }] } });
    const execution = await executeTool({ toolName: 'echo' }, env(config));
    expect(execution.result).toMatchObject({ status: 'error', summary: 'denied by preToolUse hook: not on Fridays' });
    expect(sink.events.map((event) => event.type)).toContain('hook.end');
  });

  test('a preToolUse hook gets the call on stdin and may modify the arguments and add context', async () => {
    const seen = join(dir, 'seen.json');
    const config = configWith({
      hooks: {
        preToolUse: [
          {
            run: `cat > '${seen}'; echo '{"modifiedArguments":{"message":"changed"},"additionalContext":"be brief"}'`,
            matcher: 'echo|other',
          },
        ],
      },
    });
    const execution = await executeTool({ toolName: 'echo', arguments: { message: 'original' } }, env(config));
    // The call succeeded, and the hook's context still reaches the agent with the result.
    expect(execution.result.summary).toBe('changed\nAdditional context from hooks: be brief');
    expect(execution.additionalContext).toEqual(['be brief']);
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({
      hookType: 'preToolUse',
      toolName: 'echo',
      arguments: { message: 'original' },
    });
  });

  test('a hook whose matcher does not match is not run', async () => {
    const config = configWith({ hooks: { preToolUse: [{ run: 'exit 2', matcher: 'secrets' }] } });
    const execution = await executeTool({ toolName: 'echo' }, env(config));
    expect(execution.result.status).toBe('passed');
  });

  test.each([
    ['exits 1', 'echo broken >&2; exit 1', 'preToolUse hook "echo broken >&2; exit 1" exited 1: broken'],
    [
      'prints garbage',
      'echo nonsense',
      'preToolUse hook "echo nonsense" printed something that is not JSON: "nonsense"',
    ],
    [
      'answers an unknown key',
      `echo '{"allow":true}'`,
      'preToolUse hook "echo \'{\\"allow\\":true}\'" answered an invalid reply at reply: expected {decision?: "allow"|"deny", reason?, modifiedArguments?, additionalContext?, suppressOutput?: boolean}',
    ],
  ])('a preToolUse hook that %s fails the call closed, as an error', async (_name, run, summary) => {
    const config = configWith({ hooks: { preToolUse: [{ run }] } });
    const execution = await executeTool({ toolName: 'echo' }, env(config));
    expect(execution.result).toEqual({ status: 'error', summary, findings: [] });
  });

  test('the permission policy can refuse a tool, and the decision is recorded', async () => {
    const config = configWith({ permissions: { runCommands: 'deny' } });
    const execution = await executeTool({ toolName: 'echo' }, env(config));
    expect(execution.result.summary).toBe(
      'denied by permissions.runCommands: "deny" in the config; set it to "allow" or skip the tool with --skip echo',
    );
    expect(sink.events.find((event) => event.type === 'permission.completed')?.data).toMatchObject({
      result: { kind: 'denied' },
      decisionSource: 'config',
    });
  });

  test('a tool still running at the deadline is aborted and reported as timeout, telling the agent not to rerun', async () => {
    const execution = await executeTool({ toolName: 'sleepy' }, env(configWith(), { deadline: Date.now() + 200 }));
    expect(execution.result.status).toBe('timeout');
    expect(execution.result.summary).toMatch(/do not rerun/);
  });

  test('no budget left means budget_exhausted without starting the tool', async () => {
    const execution = await executeTool({ toolName: 'echo' }, env(configWith(), { deadline: Date.now() - 1 }));
    expect(execution.result.status).toBe('budget_exhausted');
    expect(sink.events.some((event) => event.type === 'tool.execution_progress')).toBe(false);
  });

  test('a tool that throws becomes an error result with one line, and postToolUseFailure guidance is appended', async () => {
    const config = configWith({
      hooks: { postToolUseFailure: [{ run: `echo '{"additionalContext":"try --skip throwing"}'` }] },
    });
    const execution = await executeTool({ toolName: 'throwing' }, env(config));
    expect(execution.result.status).toBe('error');
    expect(execution.result.summary).toBe(
      'internal error in throwing: boom\nAdditional guidance from postToolUseFailure hook: try --skip throwing',
    );
  });

  test('a hook reply with suppressOutput keeps its context out of the printed summary; the event log keeps it', async () => {
    const config = configWith({
      hooks: {
        preToolUse: [{ run: `echo '{"additionalContext":"quiet note","suppressOutput":true}'` }],
        postToolUse: [{ run: `echo '{"additionalContext":"loud note"}'` }],
      },
    });
    const execution = await executeTool({ toolName: 'echo' }, env(config));
    expect(execution.result.summary).toContain('Additional context from hooks: loud note');
    expect(execution.result.summary).not.toContain('quiet note');
    expect(execution.additionalContext).toEqual(['loud note']);
    const ends = sink.events.filter((event) => event.type === 'hook.end');
    expect(ends[0]?.data).toMatchObject({ output: { additionalContext: 'quiet note', suppressOutput: true } });
  });

  test('a preflight answer (e.g. skipped_no_changes) stands in for running the tool', async () => {
    const execution = await executeTool(
      { toolName: 'echo' },
      env(configWith(), { preflight: async () => result('skipped_no_changes', 'nothing new') }),
    );
    expect(execution.result.status).toBe('skipped_no_changes');
    expect(sink.events.some((event) => event.type === 'tool.execution_progress')).toBe(false);
  });

  test('writes nothing but the per-tool artifacts folder', async () => {
    writeFileSync(join(dir, 'keep.txt'), 'x');
    await executeTool({ toolName: 'echo' }, env());
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(dir).sort()).toEqual(['keep.txt', 'run']);
    expect(readdirSync(join(dir, 'run'))).toEqual(['echo']);
  });
});
