import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AGENT_FIXTURES, FIXTURE_DIRS, helpFileOf } from '../../test/fakes/fake-agents.js';
import { classifyFailureText } from './failure-text.js';
import { flagsMissingFromHelp } from './help-flags.js';
import { type AgentName, agentAdapters, agentByName, type RegisteredAdapter } from './index.js';
import type { RawAgentOutput, ReviewArgsOptions } from './types.js';

const everything: ReviewArgsOptions = {
  repoRoot: '/repo',
  model: 'some-model',
  thinkingBudget: 'high',
  allowToolUse: true,
  maxTurns: 7,
  schemaPath: '/tmp/x/answer.schema.json',
  schemaJson: '{"type":"object"}',
  answerPath: '/tmp/x/answer.txt',
  prompt: 'PROMPT',
};
const minimal: ReviewArgsOptions = { ...everything, model: undefined, thinkingBudget: 'off', allowToolUse: false };

function fixture(adapter: RegisteredAdapter, scenario: string): RawAgentOutput {
  const dir = join(AGENT_FIXTURES, FIXTURE_DIRS[adapter.name]!);
  const read = (ext: string) => {
    try {
      return readFileSync(join(dir, `${scenario}.${ext}`), 'utf8');
    } catch {
      return null;
    }
  };
  return {
    stdout: read('stdout') ?? '',
    stderr: read('stderr') ?? '',
    exitCode: Number(read('exit')),
    answerFile: read('answer'),
  };
}

describe('the exact argv of a read-only review', () => {
  test.each([
    [
      'claude',
      everything,
      [
        '-p',
        '--output-format',
        'json',
        '--tools',
        'Read,Grep,Glob',
        '--allowedTools',
        'Read,Grep,Glob',
        '--permission-mode',
        'dontAsk',
        '--max-turns',
        '7',
        '--model',
        'some-model',
        '--effort',
        'high',
        '--settings',
        '{"disableAllHooks":true}',
        '--no-session-persistence',
        '--json-schema',
        '{"type":"object"}',
      ],
    ],
    [
      'claude',
      minimal,
      [
        '-p',
        '--output-format',
        'json',
        '--tools',
        '',
        '--permission-mode',
        'dontAsk',
        '--max-turns',
        '7',
        '--settings',
        '{"disableAllHooks":true}',
        '--no-session-persistence',
        '--json-schema',
        '{"type":"object"}',
      ],
    ],
    [
      'codex',
      everything,
      [
        'exec',
        '-C',
        '/repo',
        '--sandbox',
        'read-only',
        '-c',
        'approval_policy="never"',
        '-m',
        'some-model',
        '-c',
        'model_reasoning_effort="high"',
        '--disable',
        'hooks',
        '--ephemeral',
        '--skip-git-repo-check',
        '--json',
        '--output-schema',
        '/tmp/x/answer.schema.json',
        '-o',
        '/tmp/x/answer.txt',
        '-',
      ],
    ],
    [
      'gemini',
      everything,
      [
        '--skip-trust',
        '--approval-mode',
        'plan',
        '-o',
        'json',
        '-m',
        'some-model',
        '-p',
        'Carry out the review described above.',
      ],
    ],
    [
      'copilot',
      everything,
      [
        '-C',
        '/repo',
        '-s',
        '--no-ask-user',
        '--output-format',
        'json',
        '--available-tools=view,grep,glob',
        '--deny-tool=write,shell',
        '--disable-builtin-mcps',
        '--model',
        'some-model',
        '--reasoning-effort',
        'high',
      ],
    ],
    [
      'copilot',
      minimal,
      [
        '-C',
        '/repo',
        '-s',
        '--no-ask-user',
        '--output-format',
        'json',
        '--deny-tool=write,shell',
        '--disable-builtin-mcps',
      ],
    ],
    [
      'cursor',
      everything,
      [
        '-p',
        '--trust',
        '--workspace',
        '/repo',
        '--mode',
        'ask',
        '--output-format',
        'json',
        '--model',
        'some-model',
        'PROMPT',
      ],
    ],
    [
      'opencode',
      everything,
      ['run', '--dir', '/repo', '--agent', 'plan', '--format', 'json', '--pure', '-m', 'some-model'],
    ],
  ])('%s', (name, options, expected) => {
    expect(agentByName(name as AgentName).reviewArgs(options)).toEqual(expected);
  });
});

describe.each(agentAdapters.map((adapter) => [adapter.name, adapter] as const))('%s', (_name, adapter) => {
  test('every flag it passes is in the recorded --help of the version it was verified against (or declared hidden)', () => {
    const help = readFileSync(helpFileOf(adapter.name), 'utf8');
    expect(flagsMissingFromHelp(adapter, help)).toEqual([]);
  });

  test('is read-only by some mechanism, and never passes a flag that lifts it', () => {
    expect(adapter.readOnly.mechanism).not.toBe('none');
    const argv = adapter.reviewArgs(everything).join(' ');
    expect(argv).not.toMatch(/--yolo|--force|--allow-all|dangerously|bypassPermissions|workspace-write|--auto\b/);
  });

  test.each(['pass', 'findings', 'fenced'])('reads the %s answer from its structured output', (scenario) => {
    const output = adapter.readOutput(fixture(adapter, scenario));
    expect(output.kind).toBe('answer');
  });

  test.each([
    ['usage-limit', 'usage_limit'],
    ['rate-limit', 'rate_limited'],
  ])('classifies the recorded %s output as %s', (scenario, expected) => {
    const raw = fixture(adapter, scenario);
    const output = adapter.readOutput(raw);
    const kind =
      output.kind === 'failure' && output.failure !== 'error'
        ? output.failure
        : classifyFailureText(
            adapter,
            `${output.kind === 'failure' ? output.message : ''}\n${raw.stdout}\n${raw.stderr}`,
          );
    expect(kind).toBe(expected);
  });
});

describe('real not-logged-in recordings', () => {
  test.each(['claude', 'gemini', 'copilot'])('%s is classified as not logged in, not as a usage limit', (name) => {
    const adapter = agentByName(name as AgentName);
    const raw = fixture(adapter, 'not-logged-in');
    const output = adapter.readOutput(raw);
    const kind =
      output.kind === 'failure' && output.failure !== 'error'
        ? output.failure
        : classifyFailureText(
            adapter,
            `${output.kind === 'failure' ? output.message : ''}\n${raw.stdout}\n${raw.stderr}`,
          );
    expect(kind).toBe('not_logged_in');
  });
});

describe('failure phrases', () => {
  test.each([
    ['codex', 'You\u2019ve hit your usage limit. Upgrade to Plus', 'usage_limit'],
    ['claude', "You've hit your weekly limit · resets Mon", 'usage_limit'],
    ['claude', 'Credit balance is too low', 'usage_limit'],
    ['gemini', 'Quota exceeded for quota metric', 'usage_limit'],
    ['copilot', "You've hit your rate limit. Please wait for your limit to reset", 'rate_limited'],
    ['cursor', 'HTTP 429 Too Many Requests', 'rate_limited'],
    ['claude', 'Not logged in · Please run /login (usage limit unknown)', 'not_logged_in'],
    ['gemini', 'Something else went wrong', null],
  ])('%s: %j → %s', (name, text, expected) => {
    expect(classifyFailureText(agentByName(name as AgentName), text)).toBe(expected);
  });
});

test('the install script pins exactly the versions the adapters were verified against', () => {
  const script = readFileSync(join(import.meta.dirname, '../../test/agents/install-real-clis.sh'), 'utf8');
  const pinned = [...script.matchAll(/^\s+\w+:(@?[\w/.-]+)@(\d[\w.-]*)/gm)].map((match) => `${match[1]}@${match[2]}`);
  const declared = agentAdapters
    .filter((adapter) => adapter.npmPackage !== null)
    .flatMap((adapter) => adapter.verifiedVersions.map((version) => `${adapter.npmPackage}@${version}`));
  expect(pinned.sort()).toEqual(declared.sort());
});
