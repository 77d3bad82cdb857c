import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { alertResultDir, isAlertDone, markAlertDone, resetAlertDir } from './sweep-done.js';

const key = { repo: 'octo/app', number: 7, updatedAt: '2026-01-01T00:00:00Z', configHash: 'abc' };
let out = '';
afterEach(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

describe('sweep done markers', () => {
  test('done only with a matching done.json; a reset clears partial results', async () => {
    out = await mkdtemp(join(tmpdir(), 'tollgate-sweep-'));
    const dir = alertResultDir(out, key.repo, key.number);
    expect(dir).toBe(join(out, 'octo', 'app', '7'));
    await resetAlertDir(dir);
    await writeFile(join(dir, 'partial.json'), '{}');
    expect(await isAlertDone(dir, key)).toBe(false);
    await markAlertDone(dir, key);
    expect(await isAlertDone(dir, key)).toBe(true);
    expect(await isAlertDone(dir, { ...key, updatedAt: '2026-02-01T00:00:00Z' })).toBe(false);
    expect(await isAlertDone(dir, { ...key, configHash: 'def' })).toBe(false);
    await writeFile(join(dir, 'done.json'), '{"repo":');
    expect(await isAlertDone(dir, key)).toBe(false);
    await resetAlertDir(dir);
    expect(await readdir(dir)).toEqual([]);
  });
});
