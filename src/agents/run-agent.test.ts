import { readdir, readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type FakeAgents, recorded, setupFakeAgents } from '../../test/fakes/fake-agents.js';
import { removeDir, tempDir } from '../../test/support/temp-home.js';
import { timeBudget } from '../../test/support/time-budget.js';
import { agentAdapters, agentByName } from './index.js';
import { type AgentRunOutcome, runAgent } from './run-agent.js';
import type { AgentAdapter, AgentSettings } from './types.js';

const settings: AgentSettings = { thinkingBudget: 'off', allowToolUse: true, maxTurns: 10 };
const PROMPT = 'Review this change.\n```diff\n+const x = 1;\n```\n';

let repo: string;
let privateTmp: string;
let savedTmp: string | undefined;
let fakes: FakeAgents | undefined;

beforeAll(async () => {
  repo = await tempDir('tollgate-agent-repo-');
  // runAgent's prompt dirs go here, so the test can see that none is left behind.
  privateTmp = await tempDir('tollgate-agent-tmp-');
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = privateTmp;
});
afterEach(async () => {
  await fakes?.cleanup();
  fakes = undefined;
  expect(await readdir(privateTmp)).toEqual([]);
});
afterAll(async () => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  await removeDir(repo);
  await removeDir(privateTmp);
});

async function review(
  adapter: AgentAdapter,
  step: Parameters<typeof setupFakeAgents>[0][string]['review'],
  timeoutMs = timeBudget(20_000),
) {
  const expectArgv = adapter.reviewArgs({
    ...settings,
    repoRoot: repo,
    schemaPath: 'unused',
    schemaJson: JSON.stringify({ type: 'object' }),
    answerPath: 'unused',
    prompt: PROMPT,
  });
  // The temp paths are random: compare everything else exactly.
  const pathFree = expectArgv.some((arg) => arg === 'unused') ? undefined : expectArgv;
  fakes = await setupFakeAgents({
    [adapter.bin]: {
      review: {
        ...step,
        ...(pathFree && !step?.expectArgv ? { expectArgv: pathFree } : {}),
        expectCwd: repo,
        ...(adapter.promptVia === 'stdin' ? { expectStdinIncludes: [PROMPT] } : {}),
      },
    },
  });
  const outcome = await runAgent({
    adapter,
    prompt: PROMPT,
    answerSchema: { type: 'object' },
    repoRoot: repo,
    settings,
    timeoutMs,
    env: fakes.env,
  });
  return { outcome, calls: fakes.calls() };
}

const byAdapter = agentAdapters.map((adapter) => [adapter.name, adapter] as const);

describe.each(byAdapter)('%s through the shared runner', (_name, adapter) => {
  test.each([
    ['pass', 'answer'],
    ['findings', 'answer'],
    ['fenced', 'answer'],
    ['garbage', 'answer'],
    ['usage-limit', 'usage_limit'],
    ['rate-limit', 'rate_limited'],
  ] as const)('the recorded %s output gives %s', async (scenario, expected) => {
    const { outcome, calls } = await review(adapter, recorded(adapter.name, scenario));
    expect(outcome.kind, messageOf(outcome)).toBe(expected);
    const reviewCall = calls.find((call) => call.call === 'review')!;
    expect(reviewCall.cwd).toBe(repo);
    expect(reviewCall.env).toEqual({ TOLLGATE_ACTIVE: '1', CLAUDECODE: null });
    expect(reviewCall.stdin).toBe(adapter.promptVia === 'stdin' ? PROMPT : '');
    if (adapter.promptVia === 'argument') expect(reviewCall.argv.at(-1)).toBe(PROMPT);
  });
});

function messageOf(outcome: AgentRunOutcome): string {
  return 'message' in outcome ? outcome.message : outcome.text.slice(0, 200);
}

test('codex gets its schema and prompt in a private dir: 0700, files 0600', async () => {
  const { calls } = await review(agentByName('codex'), recorded('codex', 'pass'));
  expect(calls.find((call) => call.call === 'review')?.files).toEqual({ dir: '700', prompt: '600', schema: '600' });
});

test('a reviewer that hangs is killed at the timeout with its whole process group, and its prompt file is removed', async () => {
  // The fake must have started its child before the timeout: scaled, as a loaded machine starts it late.
  const timeoutMs = timeBudget(1500);
  const { outcome, calls } = await review(agentByName('gemini'), { hang: true }, timeoutMs);
  expect(outcome.kind).toBe('timeout');
  expect(messageOf(outcome)).toBe(`gemini did not answer within ${Math.round(timeoutMs / 1000)} s and was stopped`);
  const hang = calls.find((call) => call.call === 'hang')!;
  for (const pid of [hang.pid!, hang.childPid!]) expect(await isGone(pid), `pid ${pid} survived`).toBe(true);
});

test('huge output is capped, and what is left is not taken for an answer', async () => {
  fakes = await setupFakeAgents({ gemini: { review: { hugeOutputBytes: 4 * 1024 * 1024 } } });
  const outcome = await runAgent({
    adapter: agentByName('gemini'),
    prompt: PROMPT,
    answerSchema: {},
    repoRoot: repo,
    settings,
    timeoutMs: timeBudget(20_000),
    env: fakes.env,
    maxOutputBytes: 256 * 1024,
  });
  expect(outcome.kind).toBe('failed');
  expect(outcome.raw.truncated).toBe(true);
  expect(outcome.raw.stdout.length).toBe(256 * 1024);
});

test('a missing binary is not_installed and names the install command', async () => {
  fakes = await setupFakeAgents({});
  const outcome = await runAgent({
    adapter: agentByName('codex'),
    prompt: PROMPT,
    answerSchema: {},
    repoRoot: repo,
    settings,
    timeoutMs: 5_000,
    env: fakes.env,
  });
  expect(outcome).toMatchObject({
    kind: 'not_installed',
    message: 'codex is not on PATH; install Codex CLI: npm install -g @openai/codex',
  });
});

/** Gone, or a zombie waiting for a reaper (in a container, PID 1 may never reap it): either way it runs nothing. */
async function isGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < timeBudget(2000) / 50; attempt++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (/^\d+ \(.*\) Z/.test(stat)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
