import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { pruneRunFolders } from './prune-run-folders.js';

let root: string;
beforeEach(async () => {
  root = await tempDir('tollgate-prune-');
});
afterEach(async () => {
  await removeDir(root);
});

const runsDir = () => join(root, '.tollgate', 'runs');

/** A run folder: `files` at its top, and each of `folders` holding one file (a full run's validator folders). */
function makeRun(id: string, folders: string[] = [], files = ['events.jsonl', 'report.json']): string {
  const dir = join(runsDir(), id);
  mkdirSync(dir, { recursive: true });
  for (const file of files) writeFileSync(join(dir, file), '{}\n');
  for (const folder of folders) {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, 'out.log'), 'x\n');
  }
  return dir;
}

describe('pruneRunFolders', () => {
  test("removes a repeated run's files and a full run's validator folders, deeper folders too, and follows no link", async () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'keep\n');
    makeRun('20260101T000000Z-aaaaaa', ['checks', 'secrets', 'static_analysis']);
    const deep = makeRun('20260101T000001Z-bbbbbb', ['checks/nested']);
    symlinkSync(outside, join(deep, 'link'));
    makeRun('20260101T000002Z-cccccc');
    makeRun('20260101T000003Z-dddddd');
    const removed = await pruneRunFolders(root, {
      keep: 1,
      current: '20260101T000003Z-dddddd',
      referenced: async () => new Set(),
    });
    expect(removed.sort()).toEqual(['20260101T000000Z-aaaaaa', '20260101T000001Z-bbbbbb', '20260101T000002Z-cccccc']);
    // Nothing set aside is left behind, and the linked folder is untouched.
    expect(readdirSync(runsDir())).toEqual(['20260101T000003Z-dddddd']);
    expect(existsSync(join(outside, 'keep.txt'))).toBe(true);
  });
});
