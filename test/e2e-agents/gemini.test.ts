import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { type GeminiRequest, type GeminiTurn, startGeminiModel } from '../fakes/gemini-model.js';
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
 * Gemini CLI (the pinned CLI) against a scripted Gemini API on 127.0.0.1, with the installed tollgate
 * (`tollgate install gemini`). Gemini hands its model the text content of an MCP result.
 *
 * Gemini CLI starts MCP servers with every variable whose name contains KEY, TOKEN, SECRET, AUTH… removed (always,
 * whatever its `security.environmentVariableRedaction` settings), while its hooks get the whole environment. A state
 * key given by path in TOLLGATE_STATE_KEY_FILE would reach the stop hook and not the MCP server, which would sign its
 * run with another key, and the hook would never accept it. `install gemini` therefore gives both the server and the
 * hook the key's location in their `env`, which Gemini expands from its own environment; the loop runs with the key
 * where a user's environment leaves it, and at a path given by each variable.
 */
const GEMINI = agentCliPath('gemini');
const installed = existsSync(GEMINI);
if (!installed) console.warn(`skipped: Gemini CLI is not installed at ${GEMINI}; run test/agents/install-real-clis.sh`);

/** The calls answered so far, in order: Gemini's function responses carry the tool's name, not our call id. */
const CALL_ORDER = ['call_bug', 'call_validate', 'call_fix', 'call_revalidate'];

function functionResponses(request: GeminiRequest): Array<Record<string, unknown>> {
  return request.contents.flatMap((content) => content.parts ?? []).filter((part) => part.functionResponse);
}

function stepOf(request: GeminiRequest): Step {
  const answered = functionResponses(request).length;
  return nextStep(JSON.stringify(request.contents), (id) => CALL_ORDER.indexOf(id) < answered);
}

function toolName(request: GeminiRequest, suffix: string): string {
  const names = (request.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((each) => each.name));
  return names.find((name) => name.endsWith(suffix)) ?? suffix;
}

function script(request: GeminiRequest): GeminiTurn {
  const shell = (command: string): GeminiTurn => ({
    kind: 'call',
    name: toolName(request, 'run_shell_command'),
    args: { command },
  });
  const validate: GeminiTurn = { kind: 'call', name: toolName(request, 'parallel_validation'), args: {} };
  switch (stepOf(request)) {
    case 'bug':
      return shell(BUG_COMMAND);
    case 'validate':
    case 'revalidate':
      return validate;
    case 'fix':
      return shell(FIX_COMMAND);
    default:
      return { kind: 'text', text: 'Done.' };
  }
}

let work: string;
let bin: string;
const repos: TempRepo[] = [];
beforeAll(async () => {
  if (!installed) return;
  work = await tempDir('tollgate-e2e-gemini-');
  bin = await installTollgate(work);
}, 300_000);
afterAll(async () => {
  for (const repo of repos) await repo.cleanup();
  if (work) await removeDir(work);
});

describe.skipIf(!installed)('Gemini CLI end to end', () => {
  test.each([
    ['the default place', null],
    ['a path in TOLLGATE_STATE_KEY_FILE', 'TOLLGATE_STATE_KEY_FILE'],
    ['a path in TOLLGATE_STATE_SIGNER_PATH', 'TOLLGATE_STATE_SIGNER_PATH'],
  ] as const)(
    'with the state key at %s: sees the failing line, is blocked, fixes, passes and may stop',
    async (_, keyVariable) => {
      const repo = await scenarioRepo();
      repos.push(repo);
      const env: NodeJS.ProcessEnv = { ...agentEnv(repo, bin, join(work, 'tmp')), GEMINI_CLI_TRUST_WORKSPACE: 'true' };
      if (keyVariable) env[keyVariable] = join(work, `key-${keyVariable}`, 'state.key');
      await mkdir(join(work, 'tmp'), { recursive: true });
      // Headless Gemini needs an auth method chosen: the API key, which the scripted server ignores.
      await mkdir(join(repo.home, '.gemini'), { recursive: true });
      await writeFile(
        join(repo.home, '.gemini/settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
      );
      const install = await runProcess(join(bin, 'tollgate'), ['install', 'gemini'], {
        cwd: repo.root,
        env,
        timeoutMs: 60_000,
      });
      expect(install.exitCode, `${install.stdout}\n${install.stderr}`).toBe(0);
      const model = await startGeminiModel(script);
      try {
        const run = await runProcess(
          GEMINI,
          ['-p', 'Change math.js, then validate.', '-o', 'json', '--approval-mode', 'yolo', '-m', 'gemini-2.5-pro'],
          {
            cwd: repo.root,
            env: { ...env, GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'test' },
            timeoutMs: 90_000,
          },
        );
        const steps = model.requests.map(stepOf);
        const diagnostics = `exit ${run.exitCode}; steps ${steps.join(' → ')}\nlast hook reason: ${lastHookReason(model.requests.map((request) => request.contents))}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`;
        expect(steps, diagnostics).toEqual(['bug', 'validate', 'done', 'fix', 'revalidate', 'finish']);
        // The function response to the failing validation, as the request carried it: the failing line and its place.
        expect(model.bodies[2], diagnostics).toContain(FAILING_LINE);
        const afterValidation = JSON.stringify(functionResponses(model.requests[2]!).at(-1));
        expect(afterValidation).toContain(FAILING_LINE);
        expect(afterValidation).toContain(FINDING_PLACE);
        // The AfterAgent hook blocked, naming the failing check, its place and its failing line.
        const reason = textWith(model.requests[3]!.contents, STOP_BLOCKED);
        expect(reason, diagnostics).toContain(BLOCK_NAMES_FINDING);
        expect(reason).toContain(FAILING_LINE);
        // After the fix, validation passed and the stop was allowed with no loop-limit warning.
        expect(JSON.stringify(functionResponses(model.requests[5]!).at(-1))).toContain('passed');
        expect(run.stdout + run.stderr).not.toContain('blocks in a row');
        expect(run.exitCode, diagnostics).toBe(0);
        expect(await readFile(join(repo.root, 'math.js'), 'utf8')).toContain('a + b');
        // The runs were signed with the key at the path given, the one the hook checks with.
        if (keyVariable) expect(existsSync(env[keyVariable]!)).toBe(true);
      } finally {
        await model.close();
      }
    },
    240_000,
  );
});
