import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { lifetimeSchema } from '../config/duration.js';
import { makeFinding } from '../finding.js';
import { recordResult } from './results-store.js';
import type { WaiverRecord } from './waiver-record.js';
import { lapsedAt, waiverOrigin } from './waiver-scope.js';
import {
  applyWaivers,
  isExpired,
  listWaivers,
  removeWaiver,
  type WaiveRequest,
  waiveFinding,
  waiversInForce,
} from './waivers.js';

/** The rules mutation testing found unguarded (issue #35), and where a local waiver counts (issue #29). */
let repo: TempRepo;
const NOW = new Date('2026-11-26T12:00:00.000Z');
const ids = { a: 'abcd1111aaaa0000', b: 'abcd2222bbbb0000', c: 'ef01ef01ef01ef01', high: '99998888aaaabbbb' };

beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
  await recordResult(repo.root, {
    tool: 'checks',
    fingerprint: 'fp',
    configHash: 'c',
    status: 'failed',
    runId: 'r1',
    at: '2026-11-26T11:00:00.000Z',
    findings: [
      { id: ids.a, severity: 'low', title: 'a' },
      { id: ids.b, severity: 'low', title: 'b' },
      { id: ids.c, severity: 'medium', title: 'c' },
      { id: ids.high, severity: 'high', title: 'tests failed' },
    ],
  });
});
afterEach(() => repo.cleanup());

const waive = (overrides: Partial<WaiveRequest>) =>
  waiveFinding(repo.root, {
    findingId: ids.c,
    reason: 'accepted',
    human: false,
    allow: ['low', 'medium'],
    env: repo.env,
    now: NOW,
    ...overrides,
  });

describe('expiry', () => {
  const finding = makeFinding({ validator: 'checks', severity: 'low', title: 'x' });
  const waiver = (expiresAt: string): WaiverRecord => ({
    findingId: finding.id,
    reason: 'r',
    by: 'b',
    at: 'a',
    expiresAt,
  });

  test('an expired waiver does not clear its finding; one that expires later does', () => {
    expect(applyWaivers([finding], [waiver('2026-11-26T11:59:59.999Z')], NOW)[0]!.waiver).toBeUndefined();
    expect(applyWaivers([finding], [waiver('2026-11-26T12:00:00.000Z')], NOW)[0]!.waiver).toBeUndefined();
    expect(applyWaivers([finding], [waiver('2026-11-26T12:00:00.001Z')], NOW)[0]!.waiver).toBeDefined();
  });

  test('a future expiresAt is not expired; none never expires', () => {
    expect(isExpired({ expiresAt: '2027-01-01T00:00:00.000Z' }, NOW)).toBe(false);
    expect(isExpired({ expiresAt: '2026-01-01T00:00:00.000Z' }, NOW)).toBe(true);
    expect(isExpired({}, NOW)).toBe(false);
  });

  test('--expires 7d records a date seven days after now', async () => {
    const sevenDays = lifetimeSchema.parse('7d');
    expect(sevenDays).toBe(7 * 86_400_000);
    const recorded = await waive({ expiresInMs: sevenDays });
    expect(recorded.expiresAt).toBe('2026-12-03T12:00:00.000Z');
  });
});

describe('finding id prefixes', () => {
  test('an ambiguous prefix is an error naming the matches, and waives nothing', async () => {
    await expect(waive({ findingId: 'abcd' })).rejects.toMatchObject({
      code: 'usage',
      message: `finding id "abcd" matches 2 findings (${ids.a}, ${ids.b}); give more of the id`,
    });
    expect(await listWaivers(repo.root)).toEqual([]);
  });

  test('at least 4 characters: a unique 3-character prefix is not enough, 4 are', async () => {
    await expect(waive({ findingId: 'ef0' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await waive({ findingId: 'ef01' })).findingId).toBe(ids.c);
  });

  test('removing by an ambiguous prefix removes nothing', async () => {
    await waive({ findingId: ids.a });
    await waive({ findingId: ids.b });
    await expect(removeWaiver(repo.root, 'abcd', { human: false, env: repo.env })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await listWaivers(repo.root)).map((waiver) => waiver.findingId)).toEqual([ids.a, ids.b]);
  });
});

test('recording or removing one waiver keeps the others', async () => {
  await waive({ findingId: ids.a, reason: 'first' });
  await waive({ findingId: ids.b, reason: 'second' });
  await waive({ findingId: ids.c, reason: 'third' });
  await waive({ findingId: ids.b, reason: 'second, again' });
  expect((await listWaivers(repo.root)).map((waiver) => [waiver.findingId, waiver.reason])).toEqual([
    [ids.a, 'first'],
    [ids.c, 'third'],
    [ids.b, 'second, again'],
  ]);
  await removeWaiver(repo.root, ids.c, { human: false, env: repo.env });
  expect((await listWaivers(repo.root)).map((waiver) => waiver.findingId)).toEqual([ids.a, ids.b]);
});

describe('how a waiver was made, and where it counts', () => {
  test('the origin is recorded: terminal, agent markers, or neither', async () => {
    expect(waiverOrigin({}, true)).toEqual({ kind: 'terminal', tty: true, agentMarkers: [] });
    expect(waiverOrigin({ CLAUDECODE: '1' }, true)).toEqual({
      kind: 'agent-env',
      tty: true,
      agentMarkers: ['CLAUDECODE'],
    });
    expect(waiverOrigin({}, false)).toEqual({ kind: 'no-terminal', tty: false, agentMarkers: [] });
    const recorded = await waive({ madeBy: waiverOrigin({ GEMINI_CLI: '1' }, false) });
    expect((await listWaivers(repo.root))[0]!.madeBy).toEqual(recorded.madeBy);
    const finding = { ...makeFinding({ validator: 'checks', severity: 'medium', title: 'c' }), id: ids.c };
    expect(applyWaivers([finding], await listWaivers(repo.root), NOW)[0]!.waiver?.how).toBe(
      'made under an agent (GEMINI_CLI)',
    );
  });

  test('a local high waiver holds on the commit it was made on, and lapses once the change is committed', async () => {
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    const high = await waive({ findingId: ids.high, human: true, madeBy: waiverOrigin({}, true) });
    expect(high.head).toBe(head);
    const low = await waive({ findingId: ids.a });
    expect(low.head).toBeUndefined();
    expect((await waiversInForce(repo.root)).map((waiver) => waiver.findingId)).toEqual([ids.high, ids.a]);
    await repo.write('src/x.ts', 'x\n');
    const next = await repo.commit('the change');
    expect(lapsedAt(high, next)).toMatch(
      /^made on [0-9a-f]{12}, HEAD is now [0-9a-f]{12}: a local high\/critical waiver holds only until the change is committed$/,
    );
    expect((await waiversInForce(repo.root)).map((waiver) => waiver.findingId)).toEqual([ids.a]);
  });

  test('a local high waiver without the commit it was made on (hand-made, older) does not hold', () => {
    const waiver: WaiverRecord = { findingId: ids.high, reason: 'r', by: 'b', at: 'a', severity: 'high' };
    expect(lapsedAt(waiver, 'abc')).toBe('a local high/critical waiver without the commit it was made on');
    expect(lapsedAt({ ...waiver, committed: true }, 'abc')).toBeNull();
  });
});
