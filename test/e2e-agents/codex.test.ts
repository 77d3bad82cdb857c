import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { type ResponsesRequest, type ResponsesTurn, startResponsesModel } from '../fakes/responses-model.js';
import { removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { agentCliPath, installTollgate } from '../support/installed-tollgate.js';
import {
  agentEnv,
  BLOCK_NAMES_FINDING,
  BUG_COMMAND,
  FAILING_LINE,
  FINDING_PLACE,
  FIX_COMMAND,
  lastHookReason,
  nextStep,
  STOP_BLOCKED,
  type Step,
  scenarioRepo,
  textWith,
} from './scenario.js';

/**
 * Codex (the pinned CLI) against a scripted Responses API on 127.0.0.1 (a custom model provider), with the installed
 * tollgate (`tollgate install codex --user`, which also trusts the hook). Codex hands its model only an MCP result's
 * `structuredContent`, as the function call's output.
 *
 * Codex defers MCP tools (feature `tool_search_always_defer_mcp_tools`, on by default): its requests offer a
 * `tool_search` tool, and a developer message "Added deferred tool namespaces: mcp__tollgate" once the MCP server is
 * up (it starts while the first turns run). The scripted model therefore waits for that message (a `sleep 1` per
 * turn), sends a `tool_search_call`, gets back a `tool_search_output` whose `tools` hold the namespace `mcp__tollgate`
 * with `parallel_validation` in it, and calls it as a `function_call` with `namespace: "mcp__tollgate"` and `name:
 * "parallel_validation"`. A call of `mcp__tollgate__parallel_validation` is answered "unsupported call".
 *
 * Codex starts MCP servers with only HOME, PATH, TMPDIR and a few more variables of its environment, plus those the
 * server's `env_vars` names; its hooks get all of it. The agent runs with XDG_STATE_HOME set, so the MCP server signs
 * its runs with the key the stop hook checks only because `tollgate install codex` forwards the variable.
 */
const CODEX = agentCliPath('codex');
const installed = existsSync(CODEX);
if (!installed) console.warn(`skipped: Codex is not installed at ${CODEX}; run test/agents/install-real-clis.sh`);

const SHELLS = ['shell', 'shell_command', 'exec_command', 'local_shell'];
const NAMESPACE = 'mcp__tollgate';

function toolNames(request: ResponsesRequest): string[] {
  return (request.tools ?? []).map((tool) => tool.name ?? tool.type ?? '');
}

function shellCall(request: ResponsesRequest, callId: string, command: string): ResponsesTurn {
  const name = toolNames(request).find((each) => SHELLS.includes(each)) ?? 'shell';
  const args =
    name === 'exec_command'
      ? { cmd: command }
      : name === 'shell_command'
        ? { command }
        : { command: ['bash', '-lc', command] };
  return { kind: 'tool', callId, name, arguments: args };
}

function answered(request: ResponsesRequest): (id: string) => boolean {
  const ids = new Set(request.input.filter((item) => item.type === 'function_call_output').map((item) => item.call_id));
  return (id) => ids.has(id);
}

function stepOf(request: ResponsesRequest): Step {
  return nextStep(JSON.stringify(request.input), answered(request));
}

/** What a `tool_search_output` offered: `namespace.tool` names. */
function searchedTools(request: ResponsesRequest): string[] {
  const outputs = request.input.filter((item) => item.type === 'tool_search_output');
  return outputs.flatMap((item) =>
    ((item.tools ?? []) as Array<{ name?: string; tools?: Array<{ name?: string }> }>).flatMap((group) =>
      (group.tools ?? []).map((tool) => `${group.name}.${tool.name}`),
    ),
  );
}

/** What the scripted model did at each request: a scenario step, or `wait`/`tool_search` on the way to validating. */
const moves: string[] = [];

/** Validating under Codex: wait for the MCP server's tools, find them with tool_search, then call the tool. */
function validateTurn(request: ResponsesRequest, callId: string): [string, ResponsesTurn] {
  const input = JSON.stringify(request.input);
  if (!input.includes('"type":"tool_search_output"')) {
    // Up to a minute; then search anyway, so that a server that never came up fails with what Codex answered.
    if (!input.includes(`- ${NAMESPACE}:`) && moves.filter((move) => move === 'wait').length < 60) {
      return ['wait', shellCall(request, `call_wait_${request.input.length}`, 'sleep 1')];
    }
    return ['tool_search', { kind: 'tool_search', callId: 'call_search', query: 'tollgate parallel_validation' }];
  }
  return [
    callId === 'call_validate' ? 'validate' : 'revalidate',
    { kind: 'tool', callId, namespace: NAMESPACE, name: 'parallel_validation', arguments: {} },
  ];
}

function turnFor(request: ResponsesRequest): [string, ResponsesTurn] {
  const step = stepOf(request);
  switch (step) {
    case 'bug':
      return [step, shellCall(request, 'call_bug', BUG_COMMAND)];
    case 'validate':
      return validateTurn(request, 'call_validate');
    case 'fix':
      return [step, shellCall(request, 'call_fix', FIX_COMMAND)];
    case 'revalidate':
      return validateTurn(request, 'call_revalidate');
    default:
      return [step, { kind: 'text', text: 'Done.' }];
  }
}

function script(request: ResponsesRequest): ResponsesTurn {
  const [move, turn] = turnFor(request);
  moves.push(move);
  return turn;
}

/** The request that carries the output of call `id`, and that output item. */
function outputOf(requests: ResponsesRequest[], id: string): { index: number; item: unknown } {
  const index = requests.findIndex((request) => answered(request)(id));
  const item = requests[index]?.input.find((each) => each.type === 'function_call_output' && each.call_id === id);
  return { index, item };
}

let work: string;
let bin: string;
let repo: TempRepo;
beforeAll(async () => {
  if (!installed) return;
  work = await tempDir('tollgate-e2e-codex-');
  bin = await installTollgate(work);
  repo = await scenarioRepo();
}, 300_000);
afterAll(async () => {
  await repo?.cleanup();
  if (work) await removeDir(work);
});

async function writeCodexConfig(codexHome: string, modelUrl: string): Promise<void> {
  await mkdir(codexHome, { recursive: true });
  await writeFile(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "mock"',
      '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${modelUrl}"`,
      'wire_api = "responses"',
      'env_key = "MOCK_API_KEY"',
      'supports_websockets = false',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      `[projects."${repo.root}"]`,
      'trust_level = "trusted"',
      '',
    ].join('\n'),
  );
}

describe.skipIf(!installed)('Codex end to end', () => {
  test('finds parallel_validation by tool_search, sees the failing line, is blocked, fixes, passes and may stop', async () => {
    const model = await startResponsesModel(script);
    const codexHome = join(repo.home, '.codex');
    const env = {
      ...agentEnv(repo, bin, join(work, 'tmp')),
      PATH: `${bin}:${dirname(CODEX)}:${repo.env.PATH ?? ''}`,
      CODEX_HOME: codexHome,
      MOCK_API_KEY: 'test',
      // tollgate's state key lives under XDG_STATE_HOME: Codex passes it to the MCP server only because `tollgate
      // install codex` lists it in the server's `env_vars`.
      XDG_STATE_HOME: join(work, 'state'),
    };
    await mkdir(join(work, 'tmp'), { recursive: true });
    await writeCodexConfig(codexHome, model.url);
    try {
      const install = await runProcess(join(bin, 'tollgate'), ['install', 'codex', '--user'], {
        cwd: repo.root,
        env,
        timeoutMs: 60_000,
      });
      expect(install.exitCode, `${install.stdout}\n${install.stderr}`).toBe(0);
      const run = await runProcess(
        CODEX,
        [
          'exec',
          '--dangerously-bypass-approvals-and-sandbox',
          '--skip-git-repo-check',
          'Change math.js, then validate.',
        ],
        { cwd: repo.root, env, timeoutMs: 120_000 },
      );
      const diagnostics = `exit ${run.exitCode}; moves ${moves.join(' → ')}\nlast hook reason: ${lastHookReason(model.requests.map((request) => request.input))}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
      expect(
        moves.filter((move) => move !== 'wait'),
        diagnostics,
      ).toEqual(['bug', 'tool_search', 'validate', 'done', 'fix', 'revalidate', 'finish']);
      // tool_search offered the tool in its namespace.
      expect(searchedTools(model.requests.at(-1)!)).toContain(`${NAMESPACE}.parallel_validation`);
      // The output of the failing validation (structuredContent), as the next request carried it: the failing line
      // and the finding's place.
      const validation = outputOf(model.requests, 'call_validate');
      expect(model.bodies[validation.index], diagnostics).toContain(FAILING_LINE);
      expect(JSON.stringify(validation.item)).toContain(FAILING_LINE);
      expect(JSON.stringify(validation.item)).toContain(FINDING_PLACE);
      // The stop hook blocked (Codex feeds the reason back as a <hook_prompt> user turn), naming the failing check,
      // its place and its failing line.
      const reason = textWith(model.requests[validation.index + 1]!.input, STOP_BLOCKED);
      expect(reason, diagnostics).toContain('<hook_prompt');
      expect(reason).toContain(BLOCK_NAMES_FINDING);
      expect(reason).toContain(FAILING_LINE);
      // After the fix, validation passed and the stop was allowed with no loop-limit note: the run ended there.
      expect(JSON.stringify(outputOf(model.requests, 'call_revalidate').item)).toContain('passed');
      expect(run.stdout + run.stderr).not.toContain('blocks in a row');
      expect(run.exitCode, diagnostics).toBe(0);
      expect(existsSync(join(work, 'state/tollgate/state.key'))).toBe(true);
      expect(await readFile(join(repo.root, 'math.js'), 'utf8')).toContain('a + b');
    } finally {
      await model.close();
    }
  }, 180_000);

  test('an install whose trust Codex would not take exits 5 with the next step, and doctor says NOT TRUSTED', async () => {
    const other = await scenarioRepo();
    try {
      const env = {
        ...agentEnv(other, bin, join(work, 'tmp')),
        PATH: `${bin}:${dirname(CODEX)}:${other.env.PATH ?? ''}`,
      };
      await mkdir(join(work, 'tmp'), { recursive: true });
      // A trust of the hook's key recorded by hand, with a hash that is not the hook's: install must not replace it.
      const key = `${join(other.home, '.codex', 'hooks.json')}:stop:0:0`;
      await mkdir(join(other.home, '.codex'), { recursive: true });
      await writeFile(
        join(other.home, '.codex', 'config.toml'),
        `[projects."${other.root}"]\ntrust_level = "trusted"\n\n[hooks.state."${key}"]\ntrusted_hash = "sha256:${'0'.repeat(64)}"\n`,
      );
      const install = await runProcess(join(bin, 'tollgate'), ['install', 'codex', '--user'], {
        cwd: other.root,
        env,
        timeoutMs: 400_000,
      });
      expect(install.exitCode, `${install.stdout}\n${install.stderr}`).toBe(5);
      expect(install.stderr).toContain('codex (user): the Stop hook is NOT trusted: ~/.codex/config.toml has its own');
      expect(install.stderr).toContain(
        'rerun `tollgate install codex --user`, or start `codex`, open /hooks and trust',
      );
      const doctor = await runProcess(join(bin, 'tollgate'), ['doctor'], { cwd: other.root, env, timeoutMs: 120_000 });
      expect(doctor.stdout).toMatch(/user {4}hook trust NOT TRUSTED: Codex ignores this hook/);
    } finally {
      await other.cleanup();
    }
  }, 600_000);
});
