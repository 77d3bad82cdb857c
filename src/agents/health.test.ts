import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../test/support/git-repo.js';
import { signObject } from '../core/state/signed-json.js';
import { loadStateKey } from '../core/state/state-key.js';
import { ensureTollgateDir } from '../core/state/tollgate-dir.js';
import {
  COOLDOWN_MS,
  clearAdapterHealth,
  isCoolingDown,
  markAdapterUnhealthy,
  readUnhealthyAdapters,
} from './health.js';
import { agentByName } from './index.js';
import { assignSlots, buildReviewerPool } from './reviewer-pool.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo();
});
afterEach(() => repo.cleanup());

const statePath = () => join(repo.root, '.tollgate', 'state.json');
const T0 = Date.parse('2026-11-23T12:00:00Z');

test('marks and clears only its own key, keeping every other key of state.json', async () => {
  ensureTollgateDir(repo.root);
  const other = { version: 1, tools: { checks: { note: 'kept' } }, runs: [], someone_elses: { a: 1 } };
  await writeFile(statePath(), JSON.stringify(signObject('state', other, await loadStateKey())));
  await markAdapterUnhealthy(repo.root, 'codex', 'usage limit', new Date(T0));
  const { mac: _mac, ...marked } = JSON.parse(await readFile(statePath(), 'utf8'));
  expect(marked).toEqual({
    ...other,
    unhealthy_adapters: { codex: { marked_at: '2026-11-23T12:00:00.000Z', reason: 'usage limit' } },
  });
  expect(await readUnhealthyAdapters(repo.root)).toEqual(marked.unhealthy_adapters);
  await clearAdapterHealth(repo.root, 'codex');
  const { mac: _cleared, ...cleared } = JSON.parse(await readFile(statePath(), 'utf8'));
  expect(cleared).toEqual(other);
});

test('entries it cannot read are ignored, not fatal', async () => {
  ensureTollgateDir(repo.root);
  await writeFile(
    statePath(),
    JSON.stringify({ version: 1, unhealthy_adapters: { codex: 'x', gemini: { marked_at: 'never', reason: 'r' } } }),
  );
  expect(await readUnhealthyAdapters(repo.root)).toEqual({});
});

test.each([
  [0, true],
  [COOLDOWN_MS - 1, true],
  [COOLDOWN_MS, false],
])('a mark is cooling down %i ms later: %s', (elapsed, cooling) => {
  expect(isCoolingDown({ marked_at: new Date(T0).toISOString(), reason: 'r' }, T0 + elapsed)).toBe(cooling);
});

test.each([
  [['codex', 'gemini'], 2, ['codex@1', 'gemini@2']],
  [['codex', 'gemini'], 3, ['codex@1', 'gemini@2', 'codex@3']],
  [['gemini'], 2, ['gemini@1', 'gemini@2']],
  [['claude', 'codex', 'gemini'], 1, ['claude@1']],
  [[], 2, []],
] as const)('slots over %j with numReviews %i: %j', (names, count, labels) => {
  const slots = assignSlots(
    names.map((name) => agentByName(name)),
    count,
  );
  expect(slots.map((slot) => slot.label)).toEqual(labels);
});

test('the pool probes in preference order and stops once it has enough healthy adapters', async () => {
  const probed: string[] = [];
  const pool = await buildReviewerPool({
    preference: ['claude', 'codex', 'gemini'],
    wanted: 1,
    repoRoot: repo.root,
    now: T0,
    probe: async (adapter) => {
      probed.push(adapter.name);
      return adapter.name === 'claude'
        ? { kind: 'not_installed', message: 'claude is not on PATH' }
        : { kind: 'ok', helpText: '' };
    },
  });
  expect(probed).toEqual(['claude', 'codex']);
  expect(pool.healthy.map((adapter) => adapter.name)).toEqual(['codex']);
  expect(pool.unavailable.map((entry) => entry.adapter.name)).toEqual(['claude']);
});
