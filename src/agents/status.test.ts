import { afterEach, beforeEach, expect, test } from 'vitest';
import { type FakeAgents, helpFileOf, setupFakeAgents } from '../../test/fakes/fake-agents.js';
import { createTempRepo, type TempRepo } from '../../test/support/git-repo.js';
import { describeAgentsHere } from '../cli/describe-agents.js';
import { markAdapterUnhealthy } from './health.js';
import { agentByName } from './index.js';
import { reviewCommand } from './status.js';

let repo: TempRepo;
let fakes: FakeAgents;
const T0 = Date.parse('2026-11-23T12:00:00Z');

beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
  fakes = await setupFakeAgents(
    {
      claude: {
        helpFile: helpFileOf('claude'),
        version: '2.1.330 (Claude Code)',
        authArgs: ['auth', 'status'],
        auth: { exit: 0 },
      },
      codex: {
        helpFile: helpFileOf('codex'),
        version: 'codex-cli 0.170.0',
        authArgs: ['login', 'status'],
        auth: { exit: 1 },
      },
    },
    repo.env,
  );
});
afterEach(async () => {
  await fakes.cleanup();
  await repo.cleanup();
});

test('tollgate agents: installed or not, version, verification, cooldown, the exact command', async () => {
  await markAdapterUnhealthy(repo.root, 'claude', "usage limit: You've hit your 5-hour limit", new Date(T0));
  const { statuses, text } = await describeAgentsHere({ cwd: repo.root, env: fakes.env, now: T0 + 60_000 });
  const lines = text.split('\n');
  expect(lines[0]).toBe(
    "claude (Claude Code): installed (2.1.330 (Claude Code)); flags verified on 2.1.330; cooling down until 2026-11-23 13:00 UTC (usage limit: You've hit your 5-hour limit)",
  );
  expect(text).toContain(
    `  command: cd ${repo.root} && TOLLGATE_ACTIVE=1 claude -p --output-format json --tools Read,Grep,Glob --allowedTools Read,Grep,Glob --permission-mode dontAsk --max-turns 10 --settings '{"disableAllHooks":true}' --no-session-persistence --json-schema '<answer JSON schema>' < <tmp>/prompt.txt`,
  );
  expect(text).toContain(
    'codex (Codex CLI): installed (codex-cli 0.170.0); flags verified on 0.169.0, not on this version; healthy\n  problem: Codex CLI is not logged in; run `codex login`',
  );
  expect(text).toContain(
    'gemini (Gemini CLI): not installed; install with: npm install -g @google/gemini-cli; flags verified on 0.61.0',
  );
  expect(text).toContain(
    'cursor (Cursor CLI): not installed; install with: curl https://cursor.com/install -fsS | bash; unverified: flags from the documentation only',
  );
  expect(statuses.find((status) => status.name === 'codex')?.missingFlags).toEqual([]);
});

test('tollgate agents shows the command a review runs with the configured model, effort and max turns', async () => {
  await repo.write(
    'tollgate.config.yaml',
    'code_review:\n  timeout: 2m\n  adapters:\n    claude:\n      model: claude-opus-4-5\n      thinkingBudget: high\n      maxTurns: 3\n',
  );
  await repo.git('add', 'tollgate.config.yaml');
  await repo.commit('review settings');
  const { statuses } = await describeAgentsHere({ cwd: repo.root, env: fakes.env, now: T0 });
  const claude = statuses.find((status) => status.name === 'claude')!;
  expect(claude.command).toContain('--model claude-opus-4-5');
  expect(claude.command).toContain('--max-turns 3');
  expect(claude.command).not.toContain('--max-turns 10');
});

test('tollgate agents says what the configured command allows: no tools when allowToolUse is off', async () => {
  await repo.write('tollgate.config.yaml', 'code_review:\n  adapters:\n    claude:\n      allowToolUse: false\n');
  await repo.git('add', 'tollgate.config.yaml');
  await repo.commit('no tools');
  const { statuses, text } = await describeAgentsHere({ cwd: repo.root, env: fakes.env, now: T0 });
  const claude = statuses.find((status) => status.name === 'claude')!;
  expect(claude.command).toContain("--tools ''");
  expect(claude.readOnly).toBe(
    "tool-allowlist: no tools exist (--tools '') and anything else is denied (--permission-mode dontAsk)",
  );
  expect(text).not.toContain('only Read,Grep,Glob exist');
});

test('the command shows the adapter env and quotes what needs it', () => {
  const command = reviewCommand(
    agentByName('opencode'),
    { thinkingBudget: 'off', allowToolUse: true, maxTurns: 10 },
    '/my repo',
  );
  expect(command).toBe(
    `cd '/my repo' && TOLLGATE_ACTIVE=1 OPENCODE_PERMISSION='{"edit":"deny","bash":"deny","webfetch":"deny"}' opencode run --dir '/my repo' --agent plan --format json --pure < <tmp>/prompt.txt`,
  );
});
