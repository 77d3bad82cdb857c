import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../test/support/git-repo.js';
import { blobIdOf } from '../core/change-set/blob-id.js';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken } from './sample-tokens.js';
import { emptyScanOutcome, scanTargets } from './scan-targets.js';
import { SecretScanner } from './scanner.js';
import { scanFileInWindows } from './stream-file.js';

/** Large files streamed from disk: binary ones as printable runs, and only when the bytes are the expected blob. */
const scanner = new SecretScanner(builtinRules);
const token = fakeChecksumToken('ghp_', 'stream-file');
let dir: string;
beforeAll(async () => {
  dir = await tempDir('tollgate-stream-file-');
});
afterAll(() => removeDir(dir));

/** ~9 MB of binary noise (three windows), one line end per 4,000 bytes, with the token past the first window. */
function binaryWithToken(): Buffer {
  const noise = Buffer.alloc(9_000_000);
  for (let i = 0; i < noise.length; i++) noise[i] = i % 4000 === 3999 ? 0x0a : (i * 7919 + 13) % 7 === 0 ? 0 : 0xf0;
  Buffer.from(`token=${token}`).copy(noise, 5_000_000);
  return noise;
}

describe('streamed files', () => {
  test('a binary file is streamed as printable runs; the finding is on its file line, as a whole read gives', async () => {
    const bytes = binaryWithToken();
    const absolute = join(dir, 'blob.bin');
    await writeFile(absolute, bytes);
    const outcome = emptyScanOutcome();
    expect(scanFileInWindows({ path: 'blob.bin', absolute, read: async () => bytes }, { scanner }, outcome)).toBe(true);
    const whole = await scanTargets([{ path: 'blob.bin', read: async () => bytes }], { scanner });
    expect(outcome.findings.map((finding) => finding.line)).toEqual([1251]);
    expect(whole.findings.map((finding) => finding.line)).toEqual([1251]);
    expect(outcome.binaryRuns).toEqual(['blob.bin']);
  });

  test('bytes that are not the expected blob are not scanned from disk: the caller reads the snapshot instead', async () => {
    const snapshot = Buffer.from(`${'x = 1\n'.repeat(10)}token = "${token}"\n`);
    const absolute = join(dir, 'swapped.py');
    await writeFile(absolute, 'x = 1\n');
    const target = { path: 'swapped.py', absolute, read: async () => snapshot };
    const expectedBlob = { id: blobIdOf(snapshot, 'sha1'), objectFormat: 'sha1' };
    const outcome = emptyScanOutcome();
    expect(scanFileInWindows({ ...target, expectedBlob }, { scanner }, outcome)).toBe(false);
    expect(outcome.scannedFiles).toBe(0);
    await writeFile(absolute, snapshot);
    expect(scanFileInWindows({ ...target, expectedBlob }, { scanner }, outcome)).toBe(true);
    expect(outcome.findings.map((finding) => finding.line)).toEqual([11]);
  });
});
