import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type QueuedFile, scanQueue } from './disk-queue.js';
import { loadScanner } from './load-rules.js';
import { defaultSecretsOptions } from './options.js';
import { fakeChecksumToken } from './sample-tokens.js';
import type { ScanTargetsOptions } from './scan-target-types.js';
import { BROKEN_LINK, HARD_MAX_BYTES } from './scan-targets.js';

const pat = fakeChecksumToken('ghp_', 'queue-pat');
const root = mkdtempSync(join(tmpdir(), 'tollgate-queue-'));
const outside = mkdtempSync(join(tmpdir(), 'tollgate-queue-outside-'));
let options: ScanTargetsOptions;

beforeAll(async () => {
  const { scanner } = await loadScanner('/nonexistent-repo', defaultSecretsOptions(), async () => null);
  options = { scanner, baseline: new Set() };
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** Scans `files` (by path under `root`) on this thread alone, as the disk queue does. */
function scan(files: ReadonlyArray<{ path: string; size: number; unchecked?: true }>) {
  const queued: QueuedFile[] = files.map((file) => ({ ...file, absolute: join(root, file.path) }));
  const outcome = scanQueue(queued, new Int32Array(1), options, () => async () => null, root);
  return {
    found: outcome.findings.map((finding) => `${finding.path}:${finding.line}`).sort(),
    skipped: outcome.skipped,
    scannedFiles: outcome.scannedFiles,
    scannedBytes: outcome.scannedBytes,
  };
}

// An unchecked file is one git's index vouched for, not looked at when listed (POSIX only: see `canOpenUnchecked`).
describe.skipIf(process.platform === 'win32')('a file listed from the index is what opening it finds', () => {
  test('its size is the one on disk: a file grown since is read whole, and the index size only orders', () => {
    const text = `A=${pat}\n`.repeat(3);
    writeFileSync(join(root, 'grown.env'), text);
    expect(scan([{ path: 'grown.env', size: 4, unchecked: true }])).toEqual({
      found: ['grown.env:1', 'grown.env:2', 'grown.env:3'],
      skipped: [],
      scannedFiles: 1,
      scannedBytes: text.length,
    });
  });

  test('a file shrunk since, and one of exactly the index size, are read as they are', () => {
    const text = `A=${pat}\n`;
    writeFileSync(join(root, 'shrunk.env'), text);
    writeFileSync(join(root, 'same.env'), text);
    expect(
      scan([
        { path: 'shrunk.env', size: 1000, unchecked: true },
        { path: 'same.env', size: text.length, unchecked: true },
      ]),
    ).toEqual({ found: ['same.env:1', 'shrunk.env:1'], skipped: [], scannedFiles: 2, scannedBytes: 2 * text.length });
  });

  test('a file grown past the size limit since listing is skipped as too large, not read', () => {
    // Sparse, and a source map (never streamed): the cap decides before a byte is read.
    const big = join(root, 'big.js.map');
    writeFileSync(big, '');
    truncateSync(big, HARD_MAX_BYTES + 1);
    expect(scan([{ path: 'big.js.map', size: 10, unchecked: true }]).skipped).toEqual([
      { path: 'big.js.map', reason: 'too_large', detail: expect.any(String) },
    ]);
  });

  test('gone since the index, a folder or a FIFO now: not scanned and not reported, as the listing would not list it', () => {
    mkdirSync(join(root, 'now-a-folder'), { recursive: true });
    // Opening a FIFO to read waits for a writer: the open must not (the test would hang).
    expect(spawnSync('mkfifo', [join(root, 'now-a-fifo')]).status).toBe(0);
    expect(
      scan([
        { path: 'deleted.env', size: 10, unchecked: true },
        { path: 'now-a-folder', size: 10, unchecked: true },
        { path: 'now-a-fifo', size: 10, unchecked: true },
      ]),
    ).toEqual({ found: [], skipped: [], scannedFiles: 0, scannedBytes: 0 });
  });

  test('a file listed after a look at it and deleted before its read is still reported unreadable', () => {
    expect(scan([{ path: 'deleted-after-lstat.env', size: 10 }]).skipped).toEqual([
      { path: 'deleted-after-lstat.env', reason: 'unreadable', detail: 'ENOENT' },
    ]);
  });

  test('a symbolic link put where the index has a file is judged as the listing judges links', () => {
    writeFileSync(join(root, 'real.env'), `A=${pat}\n`);
    writeFileSync(join(outside, 'secret.env'), `A=${pat}\n`);
    mkdirSync(join(root, 'folder'), { recursive: true });
    symlinkSync(join(root, 'real.env'), join(root, 'inside-link.env'));
    symlinkSync(join(outside, 'secret.env'), join(root, 'outside-link.env'));
    symlinkSync(join(root, 'nowhere'), join(root, 'broken-link.env'));
    symlinkSync(join(root, 'folder'), join(root, 'folder-link'));
    const result = scan(
      ['inside-link.env', 'outside-link.env', 'broken-link.env', 'folder-link'].map((path) => ({
        path,
        size: 0,
        unchecked: true as const,
      })),
    );
    expect(result.found).toEqual(['inside-link.env:1']);
    expect(result.skipped).toEqual([
      {
        path: 'outside-link.env',
        reason: 'symlink_outside_repo',
        detail: 'symbolic link to a file outside the repository',
      },
      { path: 'broken-link.env', reason: 'unreadable', detail: BROKEN_LINK },
    ]);
    expect(result.scannedFiles).toBe(1);
  });
});
