import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { readTrustedCommits, recordRunHistory } from './history-store.js';
import { ensureTollgateDir } from './tollgate-dir.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo();
});
afterEach(() => repo.cleanup());

const id = (n: number) => n.toString(16).padStart(40, '0');

describe('.tollgate/history.json', () => {
  test('bases of runs and HEADs of passing runs are trusted; a --base flag and a failing HEAD are not', async () => {
    expect(await readTrustedCommits(repo.root)).toEqual([]);
    await recordRunHistory(repo.root, { base: { commit: id(1), source: 'upstream' }, head: id(2), passed: false });
    await recordRunHistory(repo.root, { base: { commit: id(1), source: 'upstream' }, head: id(3), passed: true });
    await recordRunHistory(repo.root, { base: { commit: id(9), source: 'flag' }, head: id(10), passed: true });
    const trusted = await readTrustedCommits(repo.root);
    expect(new Set(trusted)).toEqual(new Set([id(1), id(3)]));
    // One line, as the fast paths check a signature on the text itself (signed-json.ts, checkSignatureOfText).
    const text = await readFile(join(repo.root, '.tollgate', 'history.json'), 'utf8');
    expect(text.trimEnd()).not.toContain('\n');
  });

  test('keeps the most recent entries only', async () => {
    for (let n = 1; n <= 70; n++) {
      await recordRunHistory(repo.root, { base: { commit: id(n), source: 'head' }, head: null, passed: false });
    }
    const trusted = await readTrustedCommits(repo.root);
    expect(trusted).toHaveLength(64);
    expect(trusted).toContain(id(70));
    expect(trusted).not.toContain(id(1));
  });

  test('an unreadable file trusts nothing, and the next record starts it again', async () => {
    const { root } = ensureTollgateDir(repo.root);
    await writeFile(join(root, 'history.json'), '{ not json');
    expect(await readTrustedCommits(repo.root)).toEqual([]);
    await recordRunHistory(repo.root, { base: { commit: id(5), source: 'head' }, head: id(5), passed: true });
    expect(await readTrustedCommits(repo.root)).toEqual([id(5)]);
  });
});
