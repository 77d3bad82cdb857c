import { describe, expect, test } from 'vitest';
import type { GateStatus } from '../../core/run/gate-status.js';
import type { HookAgent, StopPayload } from './hook-agent.js';
import { hookAgent } from './index.js';
import { decideStop, type StopDecisionInput } from './stop-decision.js';
import type { StopFindings } from './stop-findings.js';
import { blockReason } from './stop-reason.js';

/** The stop hook's decision alone (pure): when it allows, when it blocks, and when it gives up blocking. */
const status = (state: GateStatus['state']): GateStatus => ({
  fingerprint: 'fp',
  changedFiles: 1,
  enabledTools: ['checks'],
  verdict: null,
  state,
  unresolvedFindings: 0,
  findingRuns: [],
  latest: null,
  ranOnChange: {},
  pendingPolicyEdits: [],
});

const payload = (overrides: Partial<StopPayload> = {}): StopPayload => ({
  sessionId: 's',
  cwd: '/repo',
  loopActive: false,
  loopCount: null,
  ...overrides,
});

const decide = (overrides: Partial<StopDecisionInput>) =>
  decideStop({
    agent: hookAgent('claude'),
    payload: payload(),
    status: status('never'),
    consecutiveBlocks: 0,
    mcpToolName: null,
    ...overrides,
  });

/** An agent with a given cap of its own. */
const withCap = (blockCap: number | null): HookAgent => ({ ...hookAgent('claude'), blockCap });

describe('decideStop', () => {
  test('a validated tree is allowed, however often the session was blocked and whoever stopped it', () => {
    expect(
      decide({ status: status('validated'), consecutiveBlocks: 99, payload: payload({ userStopped: true }) }),
    ).toEqual({ kind: 'allow', why: 'validated' });
  });

  test('a stop the person made is allowed without a follow-up, even on a failed tree', () => {
    expect(decide({ status: status('failed'), payload: payload({ userStopped: true }) })).toEqual({
      kind: 'allow',
      why: 'user_stopped',
    });
    expect(decide({ status: status('failed'), payload: payload({ userStopped: false }) }).kind).toBe('block');
  });

  test.each(['never', 'stale', 'failed'] as const)('a %s tree blocks, with the reason the hook explains', (state) => {
    const findings: StopFindings = {
      list: { findings: [], omitted: 0, blocking: 0 },
      brokenTools: ['checks (timeout): ran past its deadline'],
      runId: 'r1',
    };
    const ran = { ran: ['checks'], failing: ['checks (timeout)'], findings: 0, missing: [] };
    expect(decide({ status: status(state), mcpToolName: 'parallel_validation', ran, findings })).toEqual({
      kind: 'block',
      reason: blockReason({
        status: status(state),
        mcpToolName: 'parallel_validation',
        agent: hookAgent('claude'),
        ran,
        findings,
      }),
    });
    expect(decide({ status: status(state) })).toEqual({
      kind: 'block',
      reason: blockReason({ status: status(state), mcpToolName: null, ran: null, findings: null }),
    });
  });

  test('a failed run with a pending policy edit: the reason says a person must accept it, never the command', () => {
    const failed = {
      ...status('failed'),
      verdict: { runId: 'r1' } as GateStatus['verdict'],
      pendingPolicyEdits: ['tollgate.config.yaml'],
    };
    const alone = blockReason({ status: failed, mcpToolName: null, ran: null, findings: null });
    expect(alone).toBe(
      'tollgate: validation failed on the current changes (run r1). A policy edit is pending. Only a person can accept a policy edit (tollgate.config.yaml): tell the user it is pending; a waiver does not end it. To go on without it, restore the file as the base has it. Then run `tollgate run` again before finishing.',
    );
    const withFindings = blockReason({
      status: { ...failed, unresolvedFindings: 2 },
      mcpToolName: null,
      ran: null,
      findings: null,
    });
    expect(withFindings).toContain('\n2 unresolved finding(s): `tollgate log` lists them.\nFix them, then run');
    expect(withFindings).toContain('again before finishing. A policy edit is pending. Only a person can accept');
    for (const reason of [alone, withFindings]) expect(reason).not.toContain('policy accept');
  });

  test.each([
    ['no cap of its own (Codex, Gemini): ours, 5', null, 5],
    ['a cap above ours: ours, 5', 8, 5],
    ['a cap of 5 (Cursor): one under it', 5, 4],
    ['a cap of 3: one under it', 3, 2],
  ])('an agent with %s blocks in a row, then is allowed to stop', (_case, cap, limit) => {
    const agent = withCap(cap);
    expect(decide({ agent, consecutiveBlocks: limit - 1 })).toMatchObject({ kind: 'block' });
    expect(decide({ agent, consecutiveBlocks: limit })).toEqual({
      kind: 'allow',
      why: 'loop_limit',
      note: `tollgate: allowed the stop after ${limit} blocks in a row; validation has NOT passed on the current changes (run \`tollgate run\` to see why).`,
    });
    expect(decide({ agent, consecutiveBlocks: limit + 1 })).toMatchObject({ why: 'loop_limit' });
  });

  test("the agent's own loop count counts too, whichever of the two is higher", () => {
    const agent = withCap(null);
    expect(decide({ agent, consecutiveBlocks: 0, payload: payload({ loopCount: 5 }) })).toMatchObject({
      why: 'loop_limit',
      note: expect.stringContaining('after 5 blocks'),
    });
    expect(decide({ agent, consecutiveBlocks: 6, payload: payload({ loopCount: 1 }) })).toMatchObject({
      note: expect.stringContaining('after 6 blocks'),
    });
    expect(decide({ agent, consecutiveBlocks: 4, payload: payload({ loopCount: 4 }) }).kind).toBe('block');
    expect(decide({ agent, consecutiveBlocks: 4, payload: payload({ loopCount: null }) }).kind).toBe('block');
  });
});
