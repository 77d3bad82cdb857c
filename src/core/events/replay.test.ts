import { describe, expect, test } from 'vitest';
import { parseEventLog } from './reader.js';
import { renderRunList, renderRunLog } from './render-log.js';
import { replayRun } from './replay.js';
import type { EventDataByType, EventType } from './types.js';

/** A log as the writer would leave it, with fixed ids and times so the rendering can be pinned. */
function logText(
  events: Array<{ [T in EventType]: [T, EventDataByType[T]] }[EventType] | [string, unknown]>,
  cut = false,
): string {
  let parentId: string | null = null;
  const lines = events.map(([type, data], index) => {
    const id = `e${index + 1}`;
    const line = JSON.stringify({
      id,
      parentId,
      timestamp: `2026-11-23T10:56:${String(index).padStart(2, '0')}.000Z`,
      type,
      data,
    });
    parentId = id;
    return line;
  });
  const text = lines.map((line) => `${line}\n`).join('');
  return cut ? `${text}{"id":"e99","parentId":"e9","timest` : text;
}

const runStart: EventDataByType['run.start'] = {
  runId: '20261123T105600Z-ab12cd',
  command: 'tollgate run',
  repoRoot: '/repo',
  base: { ref: 'origin/main', commit: '0123456789abcdef0123', source: 'upstream' },
  fingerprint: 'f00dfeedc0ffee00aa',
  configHash: 'cfg',
  tools: ['checks', 'secrets', 'code_review'],
};

const checksResult = {
  status: 'failed',
  summary: '1 of 2 checks failed: test (exit 1)',
  findings: [
    {
      id: '1a2b3c4d5e6f7a8b',
      validator: 'checks',
      severity: 'high',
      title: 'check "test" failed (exit 1)',
      path: 'src/a.ts',
      line: 12,
      sources: ['checks'],
    },
    {
      id: '9f8e7d6c5b4a3921',
      validator: 'checks',
      severity: 'low',
      title: 'lint warning',
      path: 'src/b.ts',
      sources: ['checks'],
      waiver: {
        findingId: '9f8e7d6c5b4a3921',
        reason: 'generated file',
        by: 'Ana (agent)',
        at: '2026-11-23T10:00:00Z',
      },
    },
  ],
};

const killedRun = logText(
  [
    ['run.start', runStart],
    ['tool.execution_start', { toolCallId: 'c1', toolName: 'checks', arguments: {} }],
    ['tool.execution_start', { toolCallId: 'c2', toolName: 'secrets', arguments: {} }],
    ['hook.start', { hookInvocationId: 'h1', hookType: 'preToolUse', toolCallId: 'c1' }],
    ['hook.end', { hookInvocationId: 'h1', hookType: 'preToolUse', success: true, output: {} }],
    [
      'permission.requested',
      { requestId: 'p1', toolCallId: 'c1', permissionRequest: { kind: 'runCommands', toolName: 'checks' } },
    ],
    [
      'permission.completed',
      { requestId: 'p1', toolCallId: 'c1', result: { kind: 'approved' }, decisionSource: 'config' },
    ],
    [
      'tool.execution_complete',
      { toolCallId: 'c1', toolName: 'checks', success: true, durationMs: 3120, result: checksResult },
    ],
    ['tool.execution_start', { toolCallId: 'c3', toolName: 'code_review', arguments: {} }],
    ['hook.start', { hookInvocationId: 'h2', hookType: 'preToolUse', toolCallId: 'c3' }],
    [
      'hook.end',
      {
        hookInvocationId: 'h2',
        hookType: 'preToolUse',
        success: true,
        output: { decision: 'deny', reason: 'no AI on this repo' },
      },
    ],
    [
      'tool.execution_complete',
      {
        toolCallId: 'c3',
        toolName: 'code_review',
        success: false,
        durationMs: 40,
        result: { status: 'error', summary: 'denied by preToolUse hook: no AI on this repo', findings: [] },
        error: { message: 'denied by preToolUse hook: no AI on this repo', code: 'error' },
      },
    ],
    ['session.future_thing', { x: 1 }],
  ],
  true,
);

describe('replayRun', () => {
  const summary = replayRun(parseEventLog(killedRun));

  test('folds tool calls into one entry each, in start order, and flags the call that never completed', () => {
    expect(
      summary.tools.map((tool) => [tool.toolName, tool.state, tool.status, tool.durationMs, tool.findings.length]),
    ).toEqual([
      ['checks', 'completed', 'failed', 3120, 2],
      ['secrets', 'orphaned', null, null, 0],
      ['code_review', 'completed', 'error', 40, 0],
    ]);
    expect(summary.state).toBe('interrupted');
    expect(summary.end).toBeNull();
    expect(summary.runId).toBe('20261123T105600Z-ab12cd');
  });

  test('keeps hook and permission decisions, unknown events and the cut-off line', () => {
    expect(summary.hooks.map((hook) => [hook.hookType, hook.toolCallId, hook.decision])).toEqual([
      ['preToolUse', 'c1', null],
      ['preToolUse', 'c3', 'deny'],
    ]);
    expect(summary.permissions).toEqual([
      {
        requestId: 'p1',
        toolCallId: 'c1',
        toolName: 'checks',
        kind: 'runCommands',
        decision: 'approved',
        reason: null,
        source: 'config',
      },
    ]);
    expect(summary.unknownEvents).toBe(1);
    expect(summary.truncatedLastLine).toBe(true);
  });

  test('a finished run has its verdict', () => {
    const finished = replayRun(
      parseEventLog(
        logText([
          ['run.start', runStart],
          ['run.end', { runId: runStart.runId, verdict: 'passed', durationMs: 4200 }],
        ]),
      ),
    );
    expect(finished).toMatchObject({ state: 'finished', end: { verdict: 'passed', durationMs: 4200 } });
  });

  test('a completion whose start line was lost still shows up', () => {
    const lone = replayRun(
      parseEventLog(
        logText([['tool.execution_complete', { toolCallId: 'c9', toolName: 'secrets', success: true, durationMs: 5 }]]),
      ),
    );
    expect(lone.tools).toMatchObject([{ toolName: 'secrets', state: 'completed', status: null, startedAt: null }]);
  });
});

test('renders the killed run as text', () => {
  const text = renderRunLog('20261123T105600Z-ab12cd', replayRun(parseEventLog(killedRun)));
  expect(text).toMatchInlineSnapshot(`
    "run 20261123T105600Z-ab12cd: interrupted: the log ends before the run did (killed, crashed, or still running), started 2026-11-23T10:56:00.000Z
      command: tollgate run
      base: origin/main (0123456789ab, upstream); fingerprint f00dfeedc0ff
      validators: checks, secrets, code_review

      checks       failed    3.1s  2 findings
          1 of 2 checks failed: test (exit 1)
          high     src/a.ts:12  check "test" failed (exit 1)  [1a2b3c4d5e6f7a8b]
          low      src/b.ts  lint warning  [9f8e7d6c5b4a3921] (waived by Ana (agent): generated file)
      secrets      started, never completed: the run was killed
      code_review  error     40ms  no findings
          denied by preToolUse hook: no AI on this repo

    hooks and permissions:
      preToolUse for checks: ok
      preToolUse for code_review: deny: no AI on this repo
      checks runCommands: approved (config)

    log:
      line 14: cut off mid-line (the run was killed while writing it); ignored
      1 event(s) of a type this version does not know (kept in the file)
    "
  `);
});

test('renders a finished run’s headline', () => {
  const text = renderRunLog(
    'r1',
    replayRun(
      parseEventLog(
        logText([
          ['run.start', runStart],
          ['run.end', { runId: 'r1', verdict: 'failed', durationMs: 61_000 }],
        ]),
      ),
    ),
  );
  expect(text.split('\n')[0]).toBe('run r1: failed in 1m1s, started 2026-11-23T10:56:00.000Z');
});

test('renders the run list', () => {
  expect(
    renderRunList([
      {
        runId: 'r2',
        startedAt: '2026-11-23T10:57:00.000Z',
        verdict: null,
        state: 'interrupted',
        durationMs: null,
        tools: ['checks'],
        command: 'tollgate run',
      },
      {
        runId: 'r1',
        startedAt: '2026-11-23T10:56:00.000Z',
        verdict: 'passed',
        state: 'finished',
        durationMs: 4200,
        tools: ['checks', 'secrets'],
        command: null,
      },
    ]),
  ).toMatchInlineSnapshot(`
    "r2  interrupted  2026-11-23T10:57:00.000Z           checks
    r1  passed       2026-11-23T10:56:00.000Z     4.2s  checks,secrets
    "
  `);
  expect(renderRunList([])).toBe('no runs yet; `tollgate run` records one\n');
});

test('a hook that asked for its output to be suppressed shows its decision in log, not its reason', () => {
  const summary = replayRun(
    parseEventLog(
      logText([
        ['run.start', runStart],
        ['hook.start', { hookInvocationId: 'h1', hookType: 'preToolUse', toolCallId: 'c1' }],
        [
          'hook.end',
          {
            hookInvocationId: 'h1',
            hookType: 'preToolUse',
            success: true,
            output: { decision: 'allow', reason: 'internal note', suppressOutput: true },
          },
        ],
      ]),
    ),
  );
  expect(summary.hooks.map((hook) => [hook.decision, hook.reason])).toEqual([['allow', null]]);
  expect(renderRunLog('20261123T105600Z-ab12cd', summary)).not.toContain('internal note');
});
