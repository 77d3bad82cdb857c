import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { type MessagesRequest, type ScriptedTurn, startAnthropicModel } from '../fakes/anthropic-model.js';
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
 * Claude Code (the pinned CLI in test/.agent-clis) against a scripted model on 127.0.0.1, with the installed tollgate
 * (`tollgate install claude`). Claude hands its model only an MCP result's `structuredContent`: the failing line and
 * the finding's place must be in it.
 */
const CLAUDE = agentCliPath('claude');
const installed = existsSync(CLAUDE);
if (!installed)
  console.warn(`skipped: Claude Code is not installed at ${CLAUDE}; run test/agents/install-real-clis.sh`);

const VALIDATE = 'mcp__tollgate__parallel_validation';

function turnFor(step: Step): ScriptedTurn {
  switch (step) {
    case 'bug':
      return { kind: 'tool', id: 'call_bug', name: 'Bash', input: { command: BUG_COMMAND, description: 'edit' } };
    case 'validate':
      return { kind: 'tool', id: 'call_validate', name: VALIDATE, input: {} };
    case 'fix':
      return { kind: 'tool', id: 'call_fix', name: 'Bash', input: { command: FIX_COMMAND, description: 'fix' } };
    case 'revalidate':
      return { kind: 'tool', id: 'call_revalidate', name: VALIDATE, input: {} };
    default:
      return { kind: 'text', text: 'Done.' };
  }
}

function stepOf(request: MessagesRequest): Step {
  const text = JSON.stringify(request.messages);
  return nextStep(text, (id) => text.includes(`"tool_use_id":"${id}"`));
}

/** The `tool_result` block answering a call, as the model got it. */
function toolResult(request: MessagesRequest, id: string): unknown {
  return request.messages
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : []))
    .find((block) => block.type === 'tool_result' && block.tool_use_id === id);
}

let work: string;
let bin: string;
let repo: TempRepo;
beforeAll(async () => {
  if (!installed) return;
  work = await tempDir('tollgate-e2e-claude-');
  bin = await installTollgate(work);
  repo = await scenarioRepo();
}, 300_000);
afterAll(async () => {
  await repo?.cleanup();
  if (work) await removeDir(work);
});

describe.skipIf(!installed)('Claude Code end to end', () => {
  test('sees the failing line, is blocked, fixes, passes and may stop', async () => {
    const env = agentEnv(repo, bin, join(work, 'tmp'));
    await mkdir(join(work, 'tmp'), { recursive: true });
    const install = await runProcess(join(bin, 'tollgate'), ['install', 'claude'], {
      cwd: repo.root,
      env,
      timeoutMs: 60_000,
    });
    expect(install.exitCode, install.stderr).toBe(0);
    // `-p` mode connects project .mcp.json servers only once approved.
    await writeFile(
      join(repo.root, '.claude/settings.local.json'),
      JSON.stringify({ enabledMcpjsonServers: ['tollgate'] }),
    );
    const model = await startAnthropicModel((request) => turnFor(stepOf(request)));
    try {
      const run = await runProcess(
        CLAUDE,
        [
          '-p',
          'Change math.js, then validate.',
          '--output-format',
          'stream-json',
          '--verbose',
          '--allowedTools',
          `Bash ${VALIDATE}`,
        ],
        {
          cwd: repo.root,
          env: {
            ...env,
            ANTHROPIC_BASE_URL: model.url,
            ANTHROPIC_API_KEY: 'sk-ant-test',
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            DISABLE_AUTOUPDATER: '1',
            DISABLE_TELEMETRY: '1',
          },
          timeoutMs: 90_000,
        },
      );
      const steps = model.requests.map(stepOf);
      const diagnostics = `exit ${run.exitCode}; steps ${steps.join(' → ')}\nlast hook reason: ${lastHookReason(model.requests.map((request) => request.messages))}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`;
      expect(steps, diagnostics).toEqual(['bug', 'validate', 'done', 'fix', 'revalidate', 'finish']);
      // What the model got back from the failing validation (the structuredContent, as the request carried it): the
      // failing line and the finding's place.
      expect(model.bodies[2], diagnostics).toContain(FAILING_LINE);
      const afterValidation = JSON.stringify(toolResult(model.requests[2]!, 'call_validate'));
      expect(afterValidation).toContain(FAILING_LINE);
      expect(afterValidation).toContain(FINDING_PLACE);
      // The stop hook blocked, naming the failing check, its place and its failing line.
      const reason = textWith(model.requests[3]!.messages, STOP_BLOCKED);
      expect(reason, diagnostics).toContain(BLOCK_NAMES_FINDING);
      expect(reason).toContain(FAILING_LINE);
      // After the fix, validation passed and the stop was allowed (no loop-limit note): the run ended there.
      expect(JSON.stringify(toolResult(model.requests[5]!, 'call_revalidate'))).toContain('passed');
      expect(run.stdout + run.stderr).not.toContain('blocks in a row');
      expect(run.exitCode, diagnostics).toBe(0);
      expect(await readFile(join(repo.root, 'math.js'), 'utf8')).toContain('a + b');
    } finally {
      await model.close();
    }
  }, 150_000);
});
