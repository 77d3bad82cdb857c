import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import type { TollgateError } from '../errors.js';
import { parseEventLog } from '../events/reader.js';
import { type Finding, makeFinding, type Severity } from '../finding.js';
import { recordResult } from './results-store.js';
import { ensureTollgateDir } from './tollgate-dir.js';
import { applyWaivers, listWaivers, removeWaiver, type WaiveRequest, waiveFinding } from './waivers.js';

let repo: TempRepo;

const findings: Record<Severity, Finding> = {
  critical: makeFinding({ validator: 'secrets', severity: 'critical', title: 'AWS key', path: 'src/env.ts', line: 2 }),
  high: makeFinding({ validator: 'checks', severity: 'high', title: 'tests failed', path: 'src/a.ts', line: 12 }),
  medium: makeFinding({ validator: 'checks', severity: 'medium', title: 'lint warning', path: 'src/b.ts', line: 3 }),
  low: makeFinding({ validator: 'checks', severity: 'low', title: 'long line', path: 'src/c.ts' }),
  info: makeFinding({ validator: 'checks', severity: 'info', title: 'todo left' }),
};

beforeEach(async () => {
  repo = await createTempRepo();
  const byTool = (tool: string) => Object.values(findings).filter((finding) => finding.validator === tool);
  for (const tool of ['checks', 'secrets']) {
    await recordResult(repo.root, {
      tool,
      fingerprint: 'fp',
      configHash: 'c',
      status: 'failed',
      runId: 'r1',
      at: '2026-11-23T10:56:00.000Z',
      findings: byTool(tool),
    });
  }
});
afterEach(async () => {
  await repo.cleanup();
});

const waive = (overrides: Partial<WaiveRequest>) =>
  waiveFinding(repo.root, {
    findingId: findings.low.id,
    reason: 'accepted',
    human: false,
    allow: ['low', 'medium'],
    env: repo.env,
    now: new Date('2026-11-23T11:00:00.000Z'),
    ...overrides,
  });

async function auditLog() {
  return parseEventLog(await readFile(join(repo.root, '.tollgate', 'waivers.events.jsonl'), 'utf8'));
}

describe('who may waive what', () => {
  test.each<[Severity, boolean, boolean]>([
    ['low', false, true],
    ['medium', false, true],
    ['high', false, false],
    ['critical', false, false],
    ['info', false, false],
    ['high', true, true],
    ['critical', true, true],
  ])('a %s finding, --human %s: allowed %s (waivers.allow = low, medium)', async (severity, human, allowed) => {
    const attempt = waive({ findingId: findings[severity].id, human });
    if (allowed) await expect(attempt).resolves.toMatchObject({ findingId: findings[severity].id, severity });
    else await expect(attempt).rejects.toMatchObject({ code: 'usage' });
  });

  test('the refusal says who must do it and how', async () => {
    const error = await waive({ findingId: findings.high.id }).catch((caught: unknown) => caught);
    expect((error as TollgateError).message).toBe(
      `finding "${findings.high.id}" is high (checks: tests failed at src/a.ts:12); waivers.allow lets an agent waive low, medium, so fix it: only a person at their own terminal can accept this risk`,
    );
  });

  test("at a person's terminal, the refusal names --human", async () => {
    const error = await waive({ findingId: findings.high.id, reader: 'person' }).catch((caught: unknown) => caught);
    expect((error as TollgateError).message).toBe(
      `finding "${findings.high.id}" is high (checks: tests failed at src/a.ts:12); waivers.allow lets an agent waive low, medium: to accept this risk yourself, run the same command with --human (you confirm by typing the finding id)`,
    );
  });

  test('a pending policy edit is not a risk to accept: refused to anyone, even with --human, before any question', async () => {
    const edit = makeFinding({
      validator: 'policy',
      ruleId: 'policy-change',
      severity: 'low',
      title: 'Policy edit not applied: .gitleaksignore (added)',
      path: '.gitleaksignore',
      anchor: 'none..b',
    });
    await recordResult(repo.root, {
      tool: 'policy',
      fingerprint: 'fp',
      configHash: 'c',
      status: 'failed',
      runId: 'r1',
      at: '2026-11-23T10:57:00.000Z',
      findings: [edit],
    });
    const what = `finding "${edit.id}" is a pending policy edit (.gitleaksignore), not a risk to accept: a waiver cannot end it`;
    const asked: string[] = [];
    const confirm = async () => {
      asked.push('asked');
      return true;
    };
    const refusal = (overrides: Partial<WaiveRequest>) =>
      waive({ findingId: edit.id, confirm, ...overrides }).catch(
        (caught: unknown) => (caught as TollgateError).message,
      );
    expect(await refusal({ human: true, reader: 'person' })).toBe(
      `${what}; run \`tollgate policy accept\` to review and apply the edit, merge it into the base, or restore the file as the base has it`,
    );
    expect(await refusal({})).toBe(
      `${what}; it applies once a person accepts it or it is merged into the base; to go on without it, restore the file as the base has it`,
    );
    expect(asked).toEqual([]);
    expect(await listWaivers(repo.root)).toEqual([]);
  });

  test('waivers.allow from config is honoured', async () => {
    await expect(waive({ findingId: findings.medium.id, allow: ['low'] })).rejects.toThrow(
      /lets an agent waive low, so fix it/,
    );
    await expect(waive({ findingId: findings.info.id, allow: ['info'] })).resolves.toMatchObject({ severity: 'info' });
  });
});

test('records the waiver with who, when and why, in a 0600 file, and logs an event', async () => {
  const waiver = await waive({ reason: '  generated file, fixed upstream  ' });
  expect(waiver).toEqual({
    findingId: findings.low.id,
    reason: 'generated file, fixed upstream',
    by: 'Tollgate Test (agent)',
    at: '2026-11-23T11:00:00.000Z',
    severity: 'low',
    tool: 'checks',
    title: 'long line',
  });
  expect(await listWaivers(repo.root)).toEqual([waiver]);
  expect((await stat(join(repo.root, '.tollgate', 'waivers.json'))).mode & 0o777).toBe(0o600);
  const log = await auditLog();
  expect(log.events.map(({ event }) => [event.type, event.parentId, event.data])).toEqual([
    [
      'waiver.recorded',
      null,
      {
        findingId: findings.low.id,
        reason: 'generated file, fixed upstream',
        by: 'Tollgate Test (agent)',
        severity: 'low',
        automatic: true,
      },
    ],
  ]);
});

test('--human drops "(agent)" and marks the event as not automatic; events form a chain', async () => {
  await waive({});
  const waiver = await waive({ findingId: findings.critical.id, human: true, reason: 'test fixture' });
  expect(waiver.by).toBe('Tollgate Test');
  const { events } = await auditLog();
  expect(events).toHaveLength(2);
  expect(events[1]!.event.parentId).toBe(events[0]!.event.id);
  expect(events[1]!.event.data).toMatchObject({ automatic: false, severity: 'critical' });
});

test('without a git user name, $USER is who', async () => {
  await writeFile(repo.env.GIT_CONFIG_GLOBAL!, '');
  const waiver = await waive({ env: { ...repo.env, USER: 'alice' } });
  expect(waiver.by).toBe('alice (agent)');
});

test.each([
  [
    'an unknown id',
    'abcdef0123456789',
    'not_found',
    'no finding with id "abcdef0123456789" in the last run (see tollgate log)',
  ],
  [
    'a prefix shorter than 4 characters',
    'abc',
    'not_found',
    'no finding with id "abc" in the last run (see tollgate log)',
  ],
  ['an empty reason', undefined, 'usage', '--reason: expected why the finding is acceptable, got an empty text'],
])('refuses %s', async (_case, findingId, code, message) => {
  const attempt = waive(findingId === undefined ? { reason: '   ' } : { findingId });
  await expect(attempt).rejects.toMatchObject({ code, message });
});

test('a unique prefix of the id will do; the full id is recorded', async () => {
  const waiver = await waive({ findingId: findings.medium.id.slice(0, 8) });
  expect(waiver.findingId).toBe(findings.medium.id);
});

test('waiving again replaces the earlier waiver', async () => {
  await waive({ reason: 'first' });
  await waive({ reason: 'second' });
  expect((await listWaivers(repo.root)).map((waiver) => waiver.reason)).toEqual(['second']);
});

test('--remove deletes the waiver and logs waiver.removed', async () => {
  await waive({});
  const removed = await removeWaiver(repo.root, findings.low.id, { human: true, env: repo.env });
  expect(removed.findingId).toBe(findings.low.id);
  expect(await listWaivers(repo.root)).toEqual([]);
  const { events } = await auditLog();
  expect(events.map(({ event }) => event.type)).toEqual(['waiver.recorded', 'waiver.removed']);
  expect(events[1]!.event.data).toEqual({ findingId: findings.low.id, by: 'Tollgate Test' });
  await expect(removeWaiver(repo.root, findings.low.id, { human: true, env: repo.env })).rejects.toMatchObject({
    code: 'not_found',
    message: `no waiver for finding id "${findings.low.id}" (tollgate waive --list shows them)`,
  });
});

test('a corrupt waivers.json is an error and is left alone (it holds people’s decisions)', async () => {
  ensureTollgateDir(repo.root);
  const path = join(repo.root, '.tollgate', 'waivers.json');
  await writeFile(path, '{"version":1,"waivers":[');
  await expect(waive({})).rejects.toThrow(
    /^\.tollgate\/waivers\.json: not valid JSON \(.+\); fix it, or delete it to drop every waiver$/,
  );
  expect(await readFile(path, 'utf8')).toBe('{"version":1,"waivers":[');
});

test('applyWaivers marks waived findings on copies and leaves the rest as they are', () => {
  const input = [findings.low, findings.high];
  const waivers = [
    { findingId: findings.low.id, reason: 'ok', by: 'alice', at: '2026-11-23T11:00:00.000Z', severity: 'low' as const },
  ];
  const output = applyWaivers(input, waivers);
  expect(output[0]).toEqual({
    ...findings.low,
    waiver: {
      findingId: findings.low.id,
      reason: 'ok',
      by: 'alice',
      at: '2026-11-23T11:00:00.000Z',
      how: 'made by an unknown route',
    },
  });
  expect(output[1]).toBe(findings.high);
  expect(input[0]!.waiver).toBeUndefined();
});
