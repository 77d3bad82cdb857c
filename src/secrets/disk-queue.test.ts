import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { claimIndex, type QueuedFile, scanQueue } from './disk-queue.js';
import { loadScanner } from './load-rules.js';
import { defaultSecretsOptions } from './options.js';
import { type DiskTarget, type ScanWorkers, scanDiskTargets } from './parallel-scan.js';
import { fakeChecksumToken } from './sample-tokens.js';
import type { ScanTargetsOptions } from './scan-target-types.js';
import { BROKEN_LINK, HARD_MAX_BYTES } from './scan-targets.js';
import type { ScannerRules } from './scanner-rules.js';

const pat = fakeChecksumToken('ghp_', 'queue-pat');
const root = mkdtempSync(join(tmpdir(), 'tollgate-queue-'));
const outside = mkdtempSync(join(tmpdir(), 'tollgate-queue-outside-'));
let options: ScanTargetsOptions;
let rules: ScannerRules;

beforeAll(async () => {
  const loaded = await loadScanner('/nonexistent-repo', defaultSecretsOptions(), async () => null);
  options = { scanner: loaded.scanner, baseline: new Set() };
  rules = loaded.rules;
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** Scans `files` (by path under `root`) on this thread alone, as the disk queue does. */
function scan(files: ReadonlyArray<{ path: string; size: number; unchecked?: true }>) {
  const queued: QueuedFile[] = files.map((file) => ({ ...file, absolute: join(root, file.path) }));
  const outcome = scanQueue(queued, new BigInt64Array(1), options, () => async () => null, root);
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

describe('the queue from both ends', () => {
  /** Files of `sizes` bytes under `root`, each noting in `order` when a thread claims it (its path's first read). */
  function sized(sizes: readonly number[], order: string[]): DiskTarget[] {
    return sizes.map((size) => {
      const path = `sized-${size}.txt`;
      writeFileSync(join(root, path), 'x'.repeat(size));
      return {
        path,
        size,
        get absolute() {
          if (!order.includes(path)) order.push(path);
          return join(root, path);
        },
        read: async () => null,
      };
    });
  }

  test('a thread taking the back claims the smallest files first, and none another thread claimed', () => {
    const order: string[] = [];
    const files = sized([50, 40, 30, 20, 10], order);
    const claim = new BigInt64Array(1);
    const outcome = scanQueue(
      files,
      claim,
      options,
      (file) => {
        // Another thread takes the front's two largest while this one reads its first file.
        if (file.size === 10) for (let taken = 0; taken < 2; taken++) claimIndex(claim, files.length, false);
        return async () => null;
      },
      root,
      true,
    );
    expect(order).toEqual(['sized-10.txt', 'sized-20.txt', 'sized-30.txt']);
    expect(outcome.scannedFiles).toBe(3);
  });

  test('this thread takes the small end when workers share the queue, the large end when it scans alone', async () => {
    const sizes = [7, 300, 12, 4000, 45];
    for (const count of [1, 0]) {
      const order: string[] = [];
      // Workers that were started and claim nothing: this thread scans every file, in the order it claims them.
      const workers = { count, grow: () => {}, scan: async () => [] } as unknown as ScanWorkers;
      const parallel = {
        repoRoot: root,
        options: defaultSecretsOptions(),
        scanner: options.scanner,
        rules,
        baseline: new Set<string>(),
      };
      const outcome = await scanDiskTargets(sized(sizes, order), parallel, workers);
      const ascending = sizes
        .slice()
        .sort((a, b) => a - b)
        .map((size) => `sized-${size}.txt`);
      expect(order).toEqual(count > 0 ? ascending : ascending.slice().reverse());
      expect(outcome.scannedFiles).toBe(sizes.length);
    }
  });
});
