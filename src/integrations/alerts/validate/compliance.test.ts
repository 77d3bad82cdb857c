import { describe, expect, test } from 'vitest';
import { agentByName } from '../../../agents/index.js';
import type { AgentCallRecord } from '../agent-call.js';
import { compliance } from './judge-reports.js';

const call = (stdout: string): AgentCallRecord => ({
  agent: 'x',
  argv: [],
  outcome: 'answer',
  durationMs: 1,
  usage: {},
  stdout,
  stderr: '',
});

const REPORT = '## Methodology\n- [x] alert-context\n- [x] history-review\n';

describe('skill compliance', () => {
  test('where the CLI reports its tool calls (Codex), what the agent read counts, not what it ticked', () => {
    const events = [
      {
        type: 'item.completed',
        item: { type: 'command_execution', command: "bash -lc 'cat skills/alert-context/SKILL.md'" },
      },
      { type: 'item.completed', item: { type: 'command_execution', command: 'git -C repo log --oneline' } },
      { type: 'item.completed', item: { type: 'agent_message', text: 'done' } },
    ];
    const result = compliance(
      { adapter: agentByName('codex'), report: REPORT, calls: [call(events.map((e) => JSON.stringify(e)).join('\n'))] },
      ['alert-context', 'history-review'],
    );
    expect(result).toMatchObject({ basis: 'observed', percent: 50, used: ['alert-context'] });
    expect(result.text).toBe('50% of required skills read (observed from its tool calls) (missing: history-review)');
  });

  test('a CLI that reports no tool calls (Claude in json mode) falls back to the checklist, marked self-reported', () => {
    const result = compliance({ adapter: agentByName('claude'), report: REPORT, calls: [call('{}')] }, [
      'alert-context',
      'history-review',
    ]);
    expect(result).toMatchObject({ basis: 'self-reported', percent: 100 });
    expect(result.text).toBe('100% of required skills applied (self-reported)');
  });
});
