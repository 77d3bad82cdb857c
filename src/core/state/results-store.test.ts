import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { TOOL_STATUSES, type ToolStatus } from '../result.js';
import {
  applyResult,
  canSkipNoChanges,
  findVerdict,
  lastFindings,
  lastVerdictFor,
  type RunVerdictRecord,
  readState,
  recordResult,
  recordRunVerdict,
  skipDecision,
  type TollgateState,
  type ToolResultRecord,
} from './results-store.js';
import { signObject } from './signed-json.js';
import { loadStateKey } from './state-key.js';
import { ensureTollgateDir } from './tollgate-dir.js';

let repo: string;
beforeEach(async () => {
  repo = await tempDir('tollgate-results-');
});
afterEach(async () => {
  await removeDir(repo);
});

const statePath = () => join(repo, '.tollgate', 'state.json');

type Step = [status: ToolStatus, fingerprint: string, configHash?: string, tool?: string];

function replay(steps: readonly Step[]): TollgateState {
  const state: TollgateState = { version: 1, tools: {}, runs: [] };
  steps.forEach(([status, fingerprint, configHash = 'H1', tool = 'checks'], index) => {
    applyResult(state, {
      tool,
      fingerprint,
      configHash,
      status,
      runId: `run-${index + 1}`,
      at: `2026-01-01T00:00:0${index}Z`,
    });
  });
  return state;
}

describe('skipped_no_changes is allowed only on the last successful run’s fingerprint and config hash', () => {
  test.each<[string, Step[], { fingerprint: string; configHash?: string; tool?: string }, string | null]>([
    ['the last run passed on the same fingerprint and config', [['passed', 'X']], { fingerprint: 'X' }, 'run-1'],
    ['the fingerprint changed since the pass', [['passed', 'X']], { fingerprint: 'Y' }, null],
    ['the config changed since the pass', [['passed', 'X']], { fingerprint: 'X', configHash: 'H2' }, null],
    ['the validator never ran', [], { fingerprint: 'X' }, null],
    ['another validator passed, not this one', [['passed', 'X', 'H1', 'secrets']], { fingerprint: 'X' }, null],
    [
      'X passed, then Y failed, and the change is back at X',
      [
        ['passed', 'X'],
        ['failed', 'Y'],
      ],
      { fingerprint: 'X' },
      'run-1',
    ],
    [
      'X passed, then X itself failed (the pass no longer vouches for X)',
      [
        ['passed', 'X'],
        ['failed', 'X'],
      ],
      { fingerprint: 'X' },
      null,
    ],
    [
      'X passed, then X failed, then X passed again',
      [
        ['passed', 'X'],
        ['failed', 'X'],
        ['passed', 'X'],
      ],
      { fingerprint: 'X' },
      'run-3',
    ],
    [
      'X passed, then X errored (an error says nothing about the code)',
      [
        ['passed', 'X'],
        ['error', 'X'],
      ],
      { fingerprint: 'X' },
      'run-1',
    ],
    [
      'X passed, then X timed out',
      [
        ['passed', 'X'],
        ['timeout', 'X'],
      ],
      { fingerprint: 'X' },
      'run-1',
    ],
    [
      'X passed, then X was skipped as unchanged',
      [
        ['passed', 'X'],
        ['skipped_no_changes', 'X'],
      ],
      { fingerprint: 'X' },
      'run-1',
    ],
    [
      'X passed, then Y passed: the baseline moved to Y',
      [
        ['passed', 'X'],
        ['passed', 'Y'],
      ],
      { fingerprint: 'X' },
      null,
    ],
    [
      'X passed under H1, then failed under H2',
      [
        ['passed', 'X'],
        ['failed', 'X', 'H2'],
      ],
      { fingerprint: 'X' },
      'run-1',
    ],
  ])('%s', (_case, steps, query, since) => {
    const decision = skipDecision(replay(steps), { tool: 'checks', configHash: 'H1', ...query });
    expect(decision).toEqual(
      since === null ? { skip: false } : { skip: true, since: { runId: since, at: expect.any(String) } },
    );
  });

  test.each(TOOL_STATUSES.filter((status) => status !== 'passed'))(
    'a run that ended %s never becomes a baseline',
    (status) => {
      expect(skipDecision(replay([[status, 'X']]), { tool: 'checks', fingerprint: 'X', configHash: 'H1' })).toEqual({
        skip: false,
      });
    },
  );

  test('lastRun and lastSuccessful are kept apart', () => {
    const entry = replay([
      ['passed', 'X'],
      ['error', 'Y'],
    ]).tools.checks!;
    expect(entry.lastRun).toMatchObject({ status: 'error', fingerprint: 'Y', runId: 'run-2' });
    expect(entry.lastSuccessful).toMatchObject({ status: 'passed', fingerprint: 'X', runId: 'run-1' });
  });
});

const record = (overrides: Partial<ToolResultRecord> = {}): ToolResultRecord => ({
  tool: 'checks',
  fingerprint: 'fp-1',
  configHash: 'cfg-1',
  status: 'passed',
  runId: '20261123T105600Z-ab12cd',
  at: '2026-11-23T10:56:00.000Z',
  ...overrides,
});

describe('state.json on disk', () => {
  test('round trip: a recorded pass lets the same change skip, as version 1 JSON', async () => {
    await recordResult(repo, record());
    expect(await canSkipNoChanges(repo, { tool: 'checks', fingerprint: 'fp-1', configHash: 'cfg-1' })).toEqual({
      skip: true,
      since: { runId: '20261123T105600Z-ab12cd', at: '2026-11-23T10:56:00.000Z' },
    });
    const text = await readFile(statePath(), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ version: 1 });
    // One line, as the fast paths check a signature on the text itself (signed-json.ts, checkSignatureOfText).
    expect(text.trimEnd()).not.toContain('\n');
  });

  test('no state file: nothing may skip', async () => {
    expect(await canSkipNoChanges(repo, { tool: 'checks', fingerprint: 'fp-1', configHash: 'cfg-1' })).toEqual({
      skip: false,
    });
  });

  test('keeps top-level and per-tool keys it does not know', async () => {
    ensureTollgateDir(repo);
    const written = {
      version: 1,
      tools: { checks: { note: 'kept' } },
      runs: [],
      unhealthy_adapters: { claude: { until: 'later' } },
    };
    await writeFile(statePath(), JSON.stringify(signObject('state', written, await loadStateKey())));
    await recordResult(repo, record());
    const state = JSON.parse(await readFile(statePath(), 'utf8'));
    expect(state.unhealthy_adapters).toEqual({ claude: { until: 'later' } });
    expect(state.tools.checks.note).toBe('kept');
  });

  test('a corrupt state file is set aside and the update starts fresh, with a warning', async () => {
    ensureTollgateDir(repo);
    await writeFile(statePath(), '{"version": 1, "tools": {');
    expect(await canSkipNoChanges(repo, { tool: 'checks', fingerprint: 'fp-1', configHash: 'cfg-1' })).toEqual({
      skip: false,
    });
    const warnings: string[] = [];
    await recordResult(repo, record(), { onWarning: (message) => warnings.push(message) });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^\.tollgate\/state\.json: not valid JSON \(.+\); moved it to \.tollgate\/state\.json\.corrupt and started fresh \(validators rerun instead of skipping\)$/,
      ),
    ]);
    expect(await readFile(`${statePath()}.corrupt`, 'utf8')).toBe('{"version": 1, "tools": {');
    expect((await readState(repo)).tools.checks?.lastRun?.status).toBe('passed');
  });

  test('a state file from a newer tollgate is an error, not overwritten', async () => {
    ensureTollgateDir(repo);
    await writeFile(statePath(), '{"version": 2}');
    const message =
      '.tollgate/state.json: written by a newer tollgate (state version 2, this one reads 1); upgrade tollgate, or delete the file to start fresh';
    await expect(recordResult(repo, record())).rejects.toThrow(message);
    await expect(canSkipNoChanges(repo, { tool: 'checks', fingerprint: 'fp-1', configHash: 'cfg-1' })).rejects.toThrow(
      message,
    );
    expect(await readFile(statePath(), 'utf8')).toBe('{"version": 2}');
  });

  test('concurrent updates do not lose each other', async () => {
    const tools = Array.from({ length: 12 }, (_, index) => `tool_${index}`);
    await Promise.all([
      ...tools.map((tool) => recordResult(repo, record({ tool }))),
      ...tools.map((tool, index) =>
        recordRunVerdict(repo, {
          runId: `run-${index}`,
          fingerprint: 'fp',
          configHash: 'c',
          tools: [tool],
          verdict: 'passed',
          complete: true,
        }),
      ),
    ]);
    const state = await readState(repo);
    expect(Object.keys(state.tools).sort()).toEqual([...tools].sort());
    expect(state.runs).toHaveLength(tools.length);
  });
});

describe('last findings (what `tollgate waive` looks up)', () => {
  test('keeps only id, severity, title, path and line', async () => {
    const finding = {
      id: 'f1',
      severity: 'high' as const,
      title: 'lint failed',
      path: 'src/a.ts',
      line: 3,
      body: 'output…',
    };
    await recordResult(repo, record({ status: 'failed', findings: [finding] }));
    const state = JSON.parse(await readFile(statePath(), 'utf8'));
    expect(state.tools.checks.lastFindings.findings).toEqual([
      { id: 'f1', severity: 'high', title: 'lint failed', path: 'src/a.ts', line: 3 },
    ]);
    expect(state.tools.checks.lastRun.findingIds).toEqual(['f1']);
    expect(await lastFindings(repo)).toEqual([
      {
        id: 'f1',
        severity: 'high',
        title: 'lint failed',
        path: 'src/a.ts',
        line: 3,
        tool: 'checks',
        runId: '20261123T105600Z-ab12cd',
        at: '2026-11-23T10:56:00.000Z',
      },
    ]);
  });

  test('a skip brings back the findings of the run it stands on', () => {
    const state: TollgateState = { version: 1, tools: {}, runs: [] };
    const info = { id: 'i1', severity: 'info' as const, title: 'note' };
    const high = { id: 'h1', severity: 'high' as const, title: 'broken' };
    applyResult(state, record({ runId: 'r1', fingerprint: 'X', findings: [info] }));
    applyResult(state, record({ runId: 'r2', fingerprint: 'Y', status: 'failed', findings: [high] }));
    applyResult(state, record({ runId: 'r3', fingerprint: 'X', status: 'skipped_no_changes' }));
    expect(state.tools.checks?.lastFindings).toMatchObject({ runId: 'r1', findings: [info] });
  });
});

describe('run verdicts: a run of some validators never stands in for a run of all', () => {
  const verdict = (
    runId: string,
    tools: string[],
    complete: boolean,
    v: 'passed' | 'failed' = 'passed',
  ): RunVerdictRecord => ({
    runId,
    fingerprint: 'fp',
    configHash: 'c1',
    tools,
    verdict: v,
    complete,
    at: `2026-01-01T00:00:0${runId.slice(-1)}Z`,
  });

  test.each<[string, ReturnType<typeof verdict>[], Parameters<typeof findVerdict>[2], string | null]>([
    ['only a partial (--only) run exists', [verdict('r1', ['checks'], false)], {}, null],
    ['a partial run is asked for explicitly', [verdict('r1', ['checks'], false)], { includePartial: true }, 'r1'],
    [
      'a complete run, then a partial pass',
      [verdict('r1', ['checks', 'secrets'], true, 'failed'), verdict('r2', ['checks'], false)],
      {},
      'r1',
    ],
    [
      'a complete run lacks a required validator',
      [verdict('r1', ['checks'], true)],
      { tools: ['checks', 'secrets'] },
      null,
    ],
    [
      'a complete run has every required validator',
      [verdict('r1', ['checks', 'secrets'], true)],
      { tools: ['secrets'] },
      'r1',
    ],
    ['the config changed since', [verdict('r1', ['checks'], true)], { configHash: 'c2' }, null],
    [
      'HEAD moved since (other commits, same tree)',
      [{ ...verdict('r1', ['checks'], true), head: 'h1' }],
      { head: 'h2' },
      null,
    ],
    ['the same HEAD', [{ ...verdict('r1', ['checks'], true), head: 'h1' }], { head: 'h1' }, 'r1'],
    ['a verdict stored without a HEAD never matches one', [verdict('r1', ['checks'], true)], { head: 'h1' }, null],
    [
      'two complete runs: the latest counts',
      [verdict('r1', ['checks'], true, 'failed'), verdict('r2', ['checks'], true)],
      {},
      'r2',
    ],
  ])('%s', (_case, runs, query, expected) => {
    const found = findVerdict({ version: 1, tools: {}, runs }, 'fp', query);
    expect(found?.runId ?? null).toBe(expected);
  });

  test('recordRunVerdict and lastVerdictFor round trip through the file', async () => {
    await recordRunVerdict(repo, {
      runId: 'r1',
      fingerprint: 'fp',
      configHash: 'c',
      tools: ['checks'],
      verdict: 'failed',
      complete: true,
    });
    await recordRunVerdict(repo, {
      runId: 'r2',
      fingerprint: 'fp',
      configHash: 'c',
      tools: ['checks'],
      verdict: 'passed',
      complete: false,
    });
    expect(await lastVerdictFor(repo, 'fp')).toMatchObject({
      runId: 'r1',
      verdict: 'failed',
      tools: ['checks'],
      complete: true,
    });
    expect(await lastVerdictFor(repo, 'other')).toBeNull();
  });
});

test('a validator that reads the commits skips only at the same HEAD', () => {
  const state: TollgateState = { version: 1, tools: {}, runs: [] };
  applyResult(state, {
    tool: 'secrets',
    fingerprint: 'fp',
    configHash: 'H1',
    status: 'passed',
    runId: 'r1',
    at: 'a',
    head: 'h1',
  });
  const query = { tool: 'secrets', fingerprint: 'fp', configHash: 'H1' };
  expect(skipDecision(state, { ...query, head: 'h1' }).skip).toBe(true);
  expect(skipDecision(state, { ...query, head: 'h2' }).skip).toBe(false);
  expect(skipDecision(state, query).skip).toBe(true);
});
