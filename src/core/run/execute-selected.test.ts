import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { testTool } from '../../../test/support/test-tool.js';
import { timeBudget } from '../../../test/support/time-budget.js';
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
/**
 * A fake validator holds its slot until this many have run at once: the overlap a concurrency of N allows happens by
 * design, not because a quiet machine starts the next one within the first one's 30 ms.
 */
let holdUntilAtOnce = 0;
beforeEach(() => {
  seen = new Map();
  running = 0;
  mostAtOnce = 0;
  holdUntilAtOnce = 0;
});

function fakeTool(name: string, extra: { readsHistory?: boolean } = {}): AnyToolDefinition {
  return testTool(
    name,
    async (ctx) => {
      timeline.push(`start ${name}`);
      seen.set(name, ctx as ToolContext<unknown, unknown>);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      ctx.progress(`${name} working`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      while (mostAtOnce < holdUntilAtOnce) await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return result('passed', `${name} ran`);
    },
    extra,
  );
}

/** Starts, and the moments each validator ran with no other running, in order: `start plain`, `alone exclusive`. */
let timeline: string[];
beforeEach(() => {
  timeline = [];
});

/**
 * A validator that holds its slot until the run is cancelled (it honours its signal, as the real ones do): what keeps
 * an exclusive validator waiting, and what a cancellation must end.
 */
const holding = testTool('holding', async (ctx) => {
  timeline.push('start holding');
  running += 1;
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
  running -= 1;
  return result('incomplete', 'holding: cancelled');
});

/** Like a checks validator with an `exclusive` check: starts, waits until it is alone, then works with no other running. */
const exclusive = defineTool({
  name: 'exclusive',
  title: 'exclusive',
  description: 'test',
  configKey: 'exclusive',
  optionsSchema: z.object({}).prefault({}),
  inputSchema: z.object({}).loose(),
  permissions: [],
  enabledByDefault: true,
  mayWaitAlone: () => true,
  run: async (ctx) => {
    timeline.push('start exclusive');
    await ctx.whenAlone?.();
    if (ctx.signal.aborted) return result('incomplete', 'exclusive: cancelled before it ran');
    timeline.push(running === 0 ? 'alone exclusive' : `exclusive beside ${running} other(s)`);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise((resolve) => setTimeout(resolve, 20));
    running -= 1;
    return result('passed', 'exclusive ran alone');
  },
});

const plain = fakeTool('plain');
const history = fakeTool('history', { readsHistory: true });
const third = fakeTool('third');
const tools = [plain, history, third, exclusive, holding];

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
    const out = await run([plain, third]);
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
  holdUntilAtOnce = most;
  // Fewer at once than allowed would hold the validators for good: fail then, rather than at the test's timeout.
  const out = await within(5_000, run([plain, history, third], {}, `validation:\n  concurrency: ${concurrency}\n`));
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

/**
 * Settles with the run, or fails the test after `quietMs` instead of hanging it: a deadlock must fail, not time out.
 * Scaled by the load (docs/testing.md): a busy machine is slow, not deadlocked.
 */
async function within<T>(quietMs: number, work: Promise<T>): Promise<T> {
  const ms = timeBudget(quietMs);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the run did not settle within ${ms} ms (deadlock?)`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a validator that waits to run alone (an exclusive check)', () => {
  test('is started last, whatever the order of the calls', async () => {
    // Two slots for three: the others take them first (in either order, their preflights race); it waits for one.
    const out = await within(5_000, run([exclusive, plain, history], {}, 'validation:\n  concurrency: 2\n'));
    expect(timeline.slice(0, 2).sort()).toEqual(['start history', 'start plain']);
    expect(timeline.slice(2)).toEqual(['start exclusive', 'alone exclusive']);
    // The results keep the order of the calls.
    expect(out.map((execution) => execution.toolName)).toEqual(['exclusive', 'plain', 'history']);
  });

  test('with validation.concurrency 1 the run still finishes: it does not hold the one slot the others wait for', async () => {
    const out = await within(5_000, run([exclusive, plain, third], {}, 'validation:\n  concurrency: 1\n'));
    expect(statuses(out)).toEqual([
      ['exclusive', 'passed', 'exclusive ran alone'],
      ['plain', 'passed', 'plain ran'],
      ['third', 'passed', 'third ran'],
    ]);
    expect(timeline).toEqual(['start plain', 'start third', 'start exclusive', 'alone exclusive']);
  });

  test('runs alone: its work starts only once every other validator has settled', async () => {
    const out = await within(5_000, run([exclusive, plain, history, third], {}, 'validation:\n  concurrency: 4\n'));
    expect(timeline.at(-1)).toBe('alone exclusive');
    expect(timeline.slice(0, -1).sort()).toEqual(['start exclusive', 'start history', 'start plain', 'start third']);
    expect(out.every((execution) => execution.result.status === 'passed')).toBe(true);
  });

  test('a cancelled run ends it too: it stops waiting and never runs, nothing hangs', async () => {
    const controller = new AbortController();
    const pending = run([exclusive, holding], { signal: controller.signal }, 'validation:\n  concurrency: 2\n');
    for (let waited = 0; timeline.length < 2 && waited < timeBudget(2_000); waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect([...timeline].sort()).toEqual(['start exclusive', 'start holding']);
    controller.abort();
    const out = await within(5_000, pending);
    expect(out.map((execution) => execution.result.status)).toEqual(['incomplete', 'incomplete']);
    expect(timeline).not.toContain('alone exclusive');
  });
});
