import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import type { RepoChangeSet } from '../change-set/types.js';
import { parseConfigText } from '../config/load.js';
import type { EventSink } from '../pipeline/event-sink.js';
import { type AnyToolDefinition, defineTool, type ToolContext } from '../pipeline/tool.js';
import type { EffectivePolicy } from '../policy/effective-policy.js';
import { result } from '../result.js';
import { recordResult } from '../state/results-store.js';
import { type ExecuteSelectedOptions, executeSelected } from './execute-selected.js';

/**
 * Which selected validators run and which answer without running: nothing changed, an earlier pass of this very
 * change, a decision taken before; and how many run at once.
 */
let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo();
});
afterEach(() => repo.cleanup());

/** What each fake validator saw, by name. */
let seen: Map<string, ToolContext<unknown, unknown>>;
let running = 0;
let mostAtOnce = 0;
beforeEach(() => {
  seen = new Map();
  running = 0;
  mostAtOnce = 0;
});

function fakeTool(name: string, extra: { readsHistory?: boolean } = {}): AnyToolDefinition {
  return defineTool({
    name,
    title: name,
    description: 'test',
    configKey: name,
    optionsSchema: z.object({}).prefault({}),
    inputSchema: z.object({}).loose(),
    permissions: [],
    enabledByDefault: true,
    ...extra,
    run: async (ctx) => {
      seen.set(name, ctx as ToolContext<unknown, unknown>);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      ctx.progress(`${name} working`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running -= 1;
      return result('passed', `${name} ran`);
    },
  });
}

const plain = fakeTool('plain');
const history = fakeTool('history', { readsHistory: true });
const tools = [plain, history, fakeTool('third')];

function changeSet(overrides: Partial<RepoChangeSet> = {}): RepoChangeSet {
  return {
    root: repo.root,
    files: [],
    ignored: [],
    skipped: [],
    fingerprint: 'fp-1',
    isEmpty: false,
    head: 'head-1',
    hasCommits: true,
    ...overrides,
  } as unknown as RepoChangeSet;
}

function run(calls: readonly AnyToolDefinition[], options: Partial<ExecuteSelectedOptions> = {}, configText = '') {
  const loaded = parseConfigText({ text: configText, file: null, env: {}, registries: registriesWith(tools) });
  return executeSelected(
    calls.map((tool) => ({ tool, arguments: {} })),
    {
      repoRoot: repo.root,
      config: loaded.config,
      configHash: 'config-1',
      registry: tools,
      changeSet: changeSet(),
      events: { emit: () => {} },
      runDir: repo.root,
      deadline: Date.now() + 60_000,
      env: repo.env,
      ...options,
    },
  );
}

const statuses = (executions: Awaited<ReturnType<typeof run>>) =>
  executions.map((execution) => [execution.toolName, execution.result.status, execution.result.summary]);

/** A stored pass of `tool` on `fingerprint` under `configHash` (at `head`). */
const passed = (tool: string, fingerprint: string, configHash: string, head?: string) =>
  recordResult(repo.root, {
    tool,
    fingerprint,
    configHash,
    status: 'passed',
    runId: 'r0',
    at: '2026-11-26T10:00:00.000Z',
    findings: [],
    ...(head ? { head } : {}),
  });

describe('nothing to validate', () => {
  test('no file differs and HEAD is the base: every validator answers skipped_no_changes without running', async () => {
    const out = await run([plain, history], { changeSet: changeSet({ isEmpty: true, hasCommits: false }) });
    expect(statuses(out)).toEqual([
      ['plain', 'skipped_no_changes', 'No changes detected against the base. Skipping validation.'],
      ['history', 'skipped_no_changes', 'No changes detected against the base. Skipping validation.'],
    ]);
    expect(seen.size).toBe(0);
  });

  test('commits but no file difference: a validator of history runs, one of files does not', async () => {
    const out = await run([plain, history], { changeSet: changeSet({ isEmpty: true, hasCommits: true }) });
    expect(statuses(out)).toEqual([
      ['plain', 'skipped_no_changes', 'No changes detected against the base. Skipping validation.'],
      ['history', 'passed', 'history ran'],
    ]);
  });

  test('force runs them all the same', async () => {
    const out = await run([plain, history], {
      changeSet: changeSet({ isEmpty: true, hasCommits: false }),
      force: true,
    });
    expect(statuses(out).map(([, status]) => status)).toEqual(['passed', 'passed']);
  });
});

describe('an earlier pass of this change', () => {
  test('stands in for a run: same fingerprint and config', async () => {
    await passed('plain', 'fp-1', 'config-1');
    const out = await run([plain, tools[2]!]);
    expect(statuses(out)).toEqual([
      ['plain', 'skipped_no_changes', 'no changes since this validator last passed (run r0); nothing to do'],
      ['third', 'passed', 'third ran'],
    ]);
    expect(seen.has('plain')).toBe(false);
  });

  test('does not stand in for another change, another config, or under force', async () => {
    await passed('plain', 'fp-0', 'config-1');
    expect(statuses(await run([plain]))[0]![1]).toBe('passed');
    await passed('plain', 'fp-1', 'config-0');
    expect(statuses(await run([plain]))[0]![1]).toBe('passed');
    await passed('plain', 'fp-1', 'config-1');
    expect(statuses(await run([plain], { force: true }))[0]![1]).toBe('passed');
  });

  test('a validator of history needs the same HEAD too; one of files does not', async () => {
    await passed('history', 'fp-1', 'config-1', 'head-0');
    await passed('plain', 'fp-1', 'config-1', 'head-0');
    expect(statuses(await run([history, plain])).map(([, status]) => status)).toEqual(['passed', 'skipped_no_changes']);
    await passed('history', 'fp-1', 'config-1', 'head-1');
    expect(statuses(await run([history]))[0]![1]).toBe('skipped_no_changes');
  });
});

test('a decision taken before (a declared trivial change) answers first, even under force', async () => {
  const skipBefore = (tool: AnyToolDefinition) =>
    tool.name === 'plain' ? result('skipped_trivial', 'declared trivial') : null;
  const out = await run([plain, history], { skipBefore, force: true });
  expect(statuses(out)).toEqual([
    ['plain', 'skipped_trivial', 'declared trivial'],
    ['history', 'passed', 'history ran'],
  ]);
});

test.each([
  [1, 1],
  [2, 2],
])('validation.concurrency %i: at most %i validators at once', async (concurrency, most) => {
  const out = await run(tools, {}, `validation:\n  concurrency: ${concurrency}\n`);
  expect(out.map((execution) => execution.toolName)).toEqual(['plain', 'history', 'third']);
  expect(mostAtOnce).toBe(most);
});

test('passes on the run’s environment, signal, policy and listeners, and names the MCP server in the events', async () => {
  const events: { type: string; data: unknown }[] = [];
  const sink: EventSink = { emit: (type, data) => events.push({ type, data }) };
  const progress: string[] = [];
  const done: string[] = [];
  const signal = new AbortController().signal;
  const policy = { marker: 'the policy' } as unknown as EffectivePolicy;
  await run([plain, history], {
    events: sink,
    env: { ...repo.env, MARKER: 'from the run' },
    signal,
    policy,
    mcpServerName: 'tollgate',
    onProgress: (tool, message) => progress.push(`${tool}: ${message}`),
    onToolDone: (tool) => done.push(tool),
  });
  expect(seen.get('plain')!.env.MARKER).toBe('from the run');
  expect(seen.get('plain')!.policy).toBe(policy);
  expect(progress).toEqual(expect.arrayContaining(['plain: plain working', 'history: history working']));
  expect(done.sort()).toEqual(['history', 'plain']);
  const starts = events.filter((event) => event.type === 'tool.execution_start');
  expect(starts.map((event) => event.data)).toEqual([
    expect.objectContaining({ toolName: 'plain', mcpServerName: 'tollgate' }),
    expect.objectContaining({ toolName: 'history', mcpServerName: 'tollgate' }),
  ]);

  events.length = 0;
  await run([plain], { events: sink, force: true });
  expect(events.find((event) => event.type === 'tool.execution_start')!.data).not.toHaveProperty('mcpServerName');
  expect(seen.get('plain')!.policy).toBeUndefined();
});

test('an aborted signal reaches the validators', async () => {
  const controller = new AbortController();
  controller.abort();
  const out = await run([plain], { signal: controller.signal });
  expect(out[0]!.result.status).toBe('incomplete');
});
