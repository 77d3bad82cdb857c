import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { acceptancesPath, readAcceptances, recordAcceptances } from './acceptances.js';

const STEP = { path: '.gitleaksignore', from: null, to: 'a'.repeat(40), by: 'ana', at: '2026-11-26T00:00:00Z' };

test('an acceptance a person recorded is read back; one written by hand accepts nothing, and says why', async () => {
  const root = await tempDir();
  try {
    await recordAcceptances(root, [STEP]);
    expect(await readAcceptances(root)).toEqual([STEP]);

    // An agent adds its own edit to the file: the signature no longer matches, so nothing counts as accepted.
    const file = JSON.parse(await readFile(acceptancesPath(root), 'utf8'));
    file.accepted.push({ ...STEP, path: 'tollgate.config.yaml' });
    await writeFile(acceptancesPath(root), JSON.stringify(file));
    const warnings: string[] = [];
    expect(await readAcceptances(root, (message) => warnings.push(message))).toEqual([]);
    expect(warnings[0]).toMatch(/^\.tollgate\/policy-accepted\.json: its signature does not match/);

    // A file with no signature at all (written from scratch) accepts nothing either.
    await mkdir(dirname(acceptancesPath(root)), { recursive: true });
    await writeFile(acceptancesPath(root), JSON.stringify({ version: 1, accepted: [STEP] }));
    expect(await readAcceptances(root)).toEqual([]);
  } finally {
    await removeDir(root);
  }
});
