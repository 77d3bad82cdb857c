import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { type MessagesRequest, type ScriptedTurn, startAnthropicModel } from '../fakes/anthropic-model.js';
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

function script(request: MessagesRequest): ScriptedTurn {
  const text = JSON.stringify(request.messages);
  return turnFor(nextStep(text, (id) => text.includes(`"tool_use_id":"${id}"`)));
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
    const env = { ...repo.env, PATH: `${bin}:${repo.env.PATH ?? ''}` };
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
    await mkdir(join(work, 'tmp'), { recursive: true });
    const model = await startAnthropicModel(script);
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
            TMPDIR: join(work, 'tmp'), // Claude's sockets and caches go with the rest of the test's files
          },
          timeoutMs: 90_000,
        },
      );
      const steps = model.requests.map((request) => {
        const text = JSON.stringify(request.messages);
        return nextStep(text, (id) => text.includes(`"tool_use_id":"${id}"`));
      });
      const diagnostics = `exit ${run.exitCode}; steps ${steps.join(' → ')}\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`;
      expect(steps, diagnostics).toEqual(['bug', 'validate', 'done', 'fix', 'revalidate', 'finish']);
      // What the model got back from the failing validation: the failing line and the finding's place.
      const afterValidation = JSON.stringify(model.requests[2]!.messages.at(-1));
      expect(afterValidation).toContain(FAILING_LINE);
      expect(afterValidation).toContain(FINDING_PLACE);
      // The stop hook blocked, naming the failing check.
      const afterDone = JSON.stringify(model.requests[3]!.messages);
      expect(afterDone).toContain(STOP_BLOCKED);
      expect(afterDone).toContain('check \\"unit tests\\" failed');
      // After the fix, validation passed and the stop was allowed: the run ended there.
      expect(JSON.stringify(model.requests[5]!.messages.at(-1))).toContain('passed');
      expect(run.exitCode, diagnostics).toBe(0);
      expect(await readFile(join(repo.root, 'math.js'), 'utf8')).toContain('a + b');
    } finally {
      await model.close();
    }
  }, 150_000);
});
