import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { type ResponsesRequest, type ResponsesTurn, startResponsesModel } from '../fakes/responses-model.js';
import { removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { agentCliPath, installTollgate } from '../support/installed-tollgate.js';
import {
  BUG_COMMAND,
  FAILING_LINE,
  FINDING_PLACE,
  FIX_COMMAND,
  nextStep,
  STOP_BLOCKED,
  type Step,
  scenarioRepo,
} from './scenario.js';

/**
 * Codex (the pinned CLI) against a scripted Responses API on 127.0.0.1 (a custom model provider), with the installed
 * tollgate (`tollgate install codex --user`, which also trusts the hook). Codex hands its model only an MCP result's
 * `structuredContent`, as the function call's output.
 */
const CODEX = agentCliPath('codex');
/**
 * Opt-in (TOLLGATE_E2E_CODEX=1) until it passes: Codex 0.169.0 starts the tollgate server (its log shows the binding
 * catalog with 4 tools) but defers MCP tools behind its `tool_search` tool (feature
 * `tool_search_always_defer_mcp_tools`, on by default), so a direct call of `parallel_validation` or
 * `mcp__tollgate__parallel_validation` answers "unsupported call"; turning the feature off by `-c` did not change
 * that. The scripted model would have to call `tool_search` first, whose Responses item shape is not known here.
 */
const OPTED_IN = process.env.TOLLGATE_E2E_CODEX === '1';
const installed = existsSync(CODEX) && OPTED_IN;
if (!existsSync(CODEX))
  console.warn(`skipped: Codex is not installed at ${CODEX}; run test/agents/install-real-clis.sh`);
else if (!OPTED_IN) {
  console.warn(
    'skipped: the Codex end-to-end test is opt-in (TOLLGATE_E2E_CODEX=1): Codex 0.169.0 defers MCP tools behind tool_search (see codex.test.ts)',
  );
}

const SHELLS = ['shell', 'shell_command', 'exec_command', 'local_shell'];

function toolNames(request: ResponsesRequest): string[] {
  return JSON.stringify(request.tools ?? [])
    .match(/"name":"[^"]+"/g)!
    .map((pair) => pair.slice(8, -1));
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

function validateCall(request: ResponsesRequest, callId: string): ResponsesTurn {
  const name =
    toolNames(request).find((each) => each.endsWith('parallel_validation')) ?? 'mcp__tollgate__parallel_validation';
  return { kind: 'tool', callId, name, arguments: {} };
}

function answered(request: ResponsesRequest): (id: string) => boolean {
  const ids = new Set(request.input.filter((item) => item.type === 'function_call_output').map((item) => item.call_id));
  return (id) => ids.has(id);
}

function stepOf(request: ResponsesRequest): Step {
  return nextStep(JSON.stringify(request.input), answered(request));
}

function script(request: ResponsesRequest): ResponsesTurn {
  switch (stepOf(request)) {
    case 'bug':
      return shellCall(request, 'call_bug', BUG_COMMAND);
    case 'validate':
      return validateCall(request, 'call_validate');
    case 'fix':
      return shellCall(request, 'call_fix', FIX_COMMAND);
    case 'revalidate':
      return validateCall(request, 'call_revalidate');
    default:
      return { kind: 'text', text: 'Done.' };
  }
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

describe.skipIf(!installed)('Codex end to end', () => {
  test('sees the failing line, is blocked, fixes, passes and may stop', async () => {
    const model = await startResponsesModel(script);
    const codexHome = join(repo.home, '.codex');
    const env = {
      ...repo.env,
      PATH: `${bin}:${dirname(CODEX)}:${repo.env.PATH ?? ''}`,
      CODEX_HOME: codexHome,
      MOCK_API_KEY: 'test',
      TMPDIR: join(work, 'tmp'),
    };
    await mkdir(join(work, 'tmp'), { recursive: true });
    await mkdir(codexHome, { recursive: true });
    await writeFile(
      join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "mock"',
        '',
        '[model_providers.mock]',
        'name = "mock"',
        `base_url = "${model.url}"`,
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
          // Codex 0.169 defers MCP tools behind tool_search, which is off: offer them to the model directly.
          '-c',
          'features.tool_search_always_defer_mcp_tools=false',
          '--dangerously-bypass-approvals-and-sandbox',
          '--skip-git-repo-check',
          'Change math.js, then validate.',
        ],
        { cwd: repo.root, env, timeoutMs: 90_000 },
      );
      const steps = model.requests.map(stepOf);
      const diagnostics = `exit ${run.exitCode}; steps ${steps.join(' → ')}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
      expect(steps, diagnostics).toEqual(['bug', 'validate', 'done', 'fix', 'revalidate', 'finish']);
      const afterValidation = JSON.stringify(model.requests[2]!.input.at(-1));
      expect(afterValidation, diagnostics).toContain(FAILING_LINE);
      expect(afterValidation).toContain(FINDING_PLACE);
      const afterDone = JSON.stringify(model.requests[3]!.input);
      expect(afterDone).toContain(STOP_BLOCKED);
      expect(afterDone).toContain('check \\"unit tests\\" failed');
      expect(JSON.stringify(model.requests[5]!.input.at(-1))).toContain('passed');
      expect(run.exitCode, diagnostics).toBe(0);
      expect(await readFile(join(repo.root, 'math.js'), 'utf8')).toContain('a + b');
    } finally {
      await model.close();
    }
  }, 150_000);
});
