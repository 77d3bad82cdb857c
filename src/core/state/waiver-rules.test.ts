import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { lifetimeSchema } from '../config/duration.js';
import { makeFinding } from '../finding.js';
import { readState, recordResult, recordRunVerdict } from './results-store.js';
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

/** The rules mutation testing found unguarded, and where a local waiver counts. */
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

/** A later run of another validator, `lint`, with these findings. */
const recordLint = (findings: Parameters<typeof recordResult>[1]['findings']) =>
  recordResult(repo.root, {
    tool: 'lint',
    fingerprint: 'fp',
    configHash: 'c',
    status: 'failed',
    runId: 'r2',
    at: '2026-11-26T11:30:00.000Z',
    findings,
  });

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

  test('a whole id wins over a longer id it begins, and a short whole id needs no 4 characters', async () => {
    await recordLint([
      { id: 'abcd1111', severity: 'low', title: 'short' },
      { id: 'ab', severity: 'low', title: 'shortest' },
    ]);
    expect((await waive({ findingId: 'abcd1111' })).title).toBe('short');
    expect((await waive({ findingId: 'ab' })).title).toBe('shortest');
    await waive({ findingId: ids.a });
    expect((await removeWaiver(repo.root, 'abcd1111', { human: true, env: repo.env })).findingId).toBe('abcd1111');
    expect((await listWaivers(repo.root)).map((waiver) => waiver.findingId)).toEqual(['ab', ids.a]);
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
    expect(waiverOrigin([], true)).toEqual({ kind: 'terminal', tty: true, agentMarkers: [] });
    expect(waiverOrigin(['CLAUDECODE'], true)).toEqual({
      kind: 'agent-env',
      tty: true,
      agentMarkers: ['CLAUDECODE'],
    });
    expect(waiverOrigin([], false)).toEqual({ kind: 'no-terminal', tty: false, agentMarkers: [] });
    const recorded = await waive({ madeBy: waiverOrigin(['GEMINI_CLI'], false) });
    expect((await listWaivers(repo.root))[0]!.madeBy).toEqual(recorded.madeBy);
    const finding = { ...makeFinding({ validator: 'checks', severity: 'medium', title: 'c' }), id: ids.c };
    expect(applyWaivers([finding], await listWaivers(repo.root), NOW)[0]!.waiver?.how).toBe(
      'made under an agent (GEMINI_CLI)',
    );
  });

  test('a local high waiver holds on the commit it was made on, and lapses once the change is committed', async () => {
    const head = (await repo.git('rev-parse', 'HEAD')).trim();
    const high = await waive({ findingId: ids.high, human: true, madeBy: waiverOrigin([], true) });
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

describe('who may waive, and what the refusal names', () => {
  test('with nothing in waivers.allow an agent may waive nothing; a finding without a place is named by tool and title', async () => {
    await expect(waive({ allow: [] })).rejects.toMatchObject({
      code: 'usage',
      message: `finding "${ids.c}" is medium (checks: c); waivers.allow lets an agent waive nothing, so fix it: only a person at their own terminal can accept this risk`,
    });
  });

  test('a finding with a file but no line is named at the file', async () => {
    await recordLint([{ id: '5555666677778888', severity: 'high', title: 'bad file', path: 'src/x.ts' }]);
    await expect(waive({ findingId: '5555666677778888' })).rejects.toThrow('(lint: bad file at src/x.ts);');
  });

  test('the same id in two validators’ last runs is one finding: the most recent one', async () => {
    await recordLint([{ id: ids.a, severity: 'medium', title: 'a, again' }]);
    expect(await waive({ findingId: ids.a })).toMatchObject({ findingId: ids.a, tool: 'lint', severity: 'medium' });
    expect(await waive({ findingId: 'abcd1' })).toMatchObject({ findingId: ids.a, tool: 'lint' });
  });
});

describe('a person confirming', () => {
  test('a finding the person did not confirm is not waived; one they did is', async () => {
    const refuse = vi.fn(async () => false);
    await expect(waive({ findingId: ids.high, human: true, confirm: refuse })).rejects.toMatchObject({
      code: 'usage',
      message: '--human: the finding id was not confirmed; nothing was waived',
    });
    expect(refuse).toHaveBeenCalledWith(expect.objectContaining({ id: ids.high, severity: 'high' }));
    expect(await listWaivers(repo.root)).toEqual([]);
    const accept = vi.fn(async () => true);
    expect(await waive({ findingId: ids.high, human: true, confirm: accept })).toMatchObject({ findingId: ids.high });
  });

  test('an agent is not asked to confirm', async () => {
    const confirm = vi.fn(async () => false);
    expect(await waive({ confirm })).toMatchObject({ findingId: ids.c });
    expect(confirm).not.toHaveBeenCalled();
  });
});

test('--commit writes the committed file, not .tollgate/: no commit pin, applies once committed, and is logged', async () => {
  const recorded = await waive({ findingId: ids.high, human: true, commit: true, reason: 'reviewed' });
  expect(recorded).toMatchObject({ findingId: ids.high, committed: true, reason: 'reviewed' });
  expect(recorded.head).toBeUndefined();
  expect(existsSync(join(repo.root, 'tollgate.waivers.yaml'))).toBe(true);
  expect(await readFile(join(repo.root, 'tollgate.waivers.yaml'), 'utf8')).toContain(ids.high);
  // It applies once committed.
  expect(await listWaivers(repo.root)).toEqual([]);
  await repo.commit('waive the failing test, reviewed');
  expect(await listWaivers(repo.root)).toEqual([expect.objectContaining({ findingId: ids.high, committed: true })]);
  const log = await readFile(join(repo.root, '.tollgate', 'waivers.events.jsonl'), 'utf8');
  expect(log).toContain('"waiver.recorded"');
  await waive({ findingId: ids.c, reason: 'local' });
  expect((await listWaivers(repo.root)).map((waiver) => [waiver.findingId, waiver.committed === true])).toEqual([
    [ids.c, false],
    [ids.high, true],
  ]);
});

describe('removing a waiver', () => {
  test('an agent may remove one (it only makes the gate stricter), and is named as an agent', async () => {
    await waive({ findingId: ids.a, human: true });
    await removeWaiver(repo.root, ids.a, { human: false, env: repo.env });
    const log = (await readFile(join(repo.root, '.tollgate', 'waivers.events.jsonl'), 'utf8')).trim().split('\n');
    expect(log).toHaveLength(2);
    expect(log[0]).toContain('"by":"Tollgate Test"');
    expect(log[1]).toContain('"type":"waiver.removed"');
    expect(log[1]).toContain('"by":"Tollgate Test (agent)"');
  });

  test('an ambiguous prefix says so; a unique prefix of 4 removes', async () => {
    await waive({ findingId: ids.a });
    await waive({ findingId: ids.b });
    await expect(removeWaiver(repo.root, 'abcd', { human: true, env: repo.env })).rejects.toMatchObject({
      message: 'more than one waiver matches finding id "abcd" (tollgate waive --list shows them)',
    });
    await expect(removeWaiver(repo.root, 'abc', { human: true, env: repo.env })).rejects.toMatchObject({
      message: 'no waiver for finding id "abc" (tollgate waive --list shows them)',
    });
    expect((await removeWaiver(repo.root, 'abcd2', { human: true, env: repo.env })).findingId).toBe(ids.b);
    expect((await listWaivers(repo.root)).map((waiver) => waiver.findingId)).toEqual([ids.a]);
  });

  test('passing verdicts are forgotten (one may have stood on the waiver); failed ones stay', async () => {
    await waive({ findingId: ids.a });
    const verdict = { fingerprint: 'fp', configHash: 'c', tools: ['checks'], complete: true };
    await recordRunVerdict(repo.root, { ...verdict, runId: 'ok', verdict: 'passed' });
    await recordRunVerdict(repo.root, { ...verdict, runId: 'bad', verdict: 'failed' });
    await removeWaiver(repo.root, ids.a, { human: true, env: repo.env });
    expect((await readState(repo.root)).runs.map((run) => run.runId)).toEqual(['bad']);
  });
});

test('who waives: git user.name, else $USER, else $USERNAME, else "unknown"', async () => {
  await writeFile(repo.env.GIT_CONFIG_GLOBAL!, '');
  const env = { ...repo.env, USER: '', USERNAME: '' };
  expect((await waive({ env: { ...env, USERNAME: 'bob' } })).by).toBe('bob (agent)');
  expect((await waive({ env })).by).toBe('unknown (agent)');
  expect((await waive({ env: { ...env, USER: 'alice', USERNAME: 'bob' }, human: true })).by).toBe('alice');
});
