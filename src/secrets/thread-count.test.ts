import { readFileSync } from 'node:fs';
import { describe, expect, test, vi } from 'vitest';
import { secretsOptionsSchema } from './options.js';
import type { ThreadChoice, WorkerSetup } from './parallel-scan.js';
import { emptyScanOutcome } from './scan-targets.js';
import type { ScannerRules } from './scanner-rules.js';

// Whatever the load average says, the count must not change: the chooser is tested with it mocked to a busy machine.
vi.mock('node:os', async (original) => ({
  ...(await original<typeof import('node:os')>()),
  loadavg: () => [40, 40, 40],
}));

const { BYTES_PER_THREAD, chooseThreads, defaultThreads, ScanWorkers } = await import('./parallel-scan.js');
type ScanWorkersType = InstanceType<typeof ScanWorkers>;

/** The built-in rules alone, as `loadScanner` sends them with no custom or imported rule. */
const BUILTIN_RULES_ONLY: ScannerRules = { withoutEncryptedKeys: false, extra: [] };

/** Workers sized by the cores and the bytes to scan, capped by `--max-threads` / `secrets.maxThreads`. */
describe('scanning threads', () => {
  test('one per core, as many as the bytes pay for (a worker per 128 MB beyond the first)', () => {
    expect(BYTES_PER_THREAD).toBe(128_000_000);
    expect(defaultThreads(1_000_000_000, 8)).toBe(8);
    expect(defaultThreads(500_000_000, 2)).toBe(2);
    expect(defaultThreads(30_000_000, 8)).toBe(1);
    expect(defaultThreads(100_000_000, 8)).toBe(1);
    expect(defaultThreads(256_000_000, 8)).toBe(3);
    expect(defaultThreads(255_000_000, 2)).toBe(2);
    expect(defaultThreads(BYTES_PER_THREAD - 1, 8)).toBe(1);
    expect(defaultThreads(1_000_000, 8)).toBe(1);
    expect(defaultThreads(0, 8)).toBe(1);
    expect(defaultThreads(500_000_000, 1)).toBe(1);
  });

  test('never more than 16, whatever the cores', () => {
    expect(defaultThreads(10_000_000_000, 64)).toBe(16);
    expect(chooseThreads(10_000_000_000, { threads: 40 }, 64)).toBe(16);
  });

  test('the load average does not count: a loaded 2-core machine still gets its second thread', () => {
    expect(defaultThreads.length).toBe(2);
    expect(chooseThreads(500_000_000, {}, 2)).toBe(2);
    const source = readFileSync(new URL('./parallel-scan.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/loadavg/);
  });

  test('a cap lowers the count, never raises it; an exact count (TOLLGATE_SCAN_THREADS) wins over both', () => {
    expect(chooseThreads(500_000_000, { maxThreads: 3 }, 8)).toBe(3);
    expect(chooseThreads(500_000_000, { maxThreads: 1 }, 8)).toBe(1);
    expect(chooseThreads(1_000_000, { maxThreads: 8 }, 8)).toBe(1);
    expect(chooseThreads(500_000_000, { maxThreads: 16 }, 2)).toBe(2);
    expect(chooseThreads(1_000, { threads: 3, maxThreads: 1 }, 2)).toBe(3);
  });
});

/** Workers started while the files are listed: a stand-in thread records what each is sent, and whether it ended. */
function listingWorkers(choice: ThreadChoice, cores: number) {
  const posted: unknown[] = [];
  const stopped: number[] = [];
  let started = 0;
  const workers: ScanWorkersType = new ScanWorkers(choice, cores, () => {
    const id = started++;
    return {
      worker: {
        ref: () => ({}) as never,
        postMessage: (message: unknown) => posted.push({ id, message }),
        terminate: async () => stopped.push(id) as never,
      },
      outcome: Promise.resolve({ ...emptyScanOutcome(), scannedFiles: id + 1 }),
    };
  });
  return { workers, posted, stopped, started: () => started };
}

/** What the config brings (`ScanWorkers.post`), with `choice` its thread settings. */
function setup(choice: ThreadChoice & { reportRejected?: boolean } = {}): WorkerSetup {
  return {
    repoRoot: '/repo',
    options: secretsOptionsSchema().parse(undefined),
    rules: BUILTIN_RULES_ONLY,
    baseline: new Set(['f1']),
    ...choice,
  };
}

describe('workers started while the files are listed', () => {
  test('a worker starts as soon as the bytes listed so far pay for it, not before, and never past the cores', () => {
    const { workers } = listingWorkers({}, 2);
    expect(workers.count).toBe(0);
    workers.listed(BYTES_PER_THREAD / 2);
    expect(workers.count).toBe(0);
    workers.listed(BYTES_PER_THREAD / 2);
    expect(workers.count).toBe(1);
    workers.listed(10 * BYTES_PER_THREAD);
    workers.grow(100 * BYTES_PER_THREAD);
    expect(workers.count).toBe(1);
  });

  test('on more cores, one more per BYTES_PER_THREAD listed; the cap holds while listing', () => {
    const open = listingWorkers({}, 8);
    for (let i = 0; i < 3; i++) open.workers.listed(BYTES_PER_THREAD);
    expect(open.workers.count).toBe(3);
    const capped = listingWorkers({ maxThreads: 2 }, 8);
    for (let i = 0; i < 5; i++) capped.workers.listed(BYTES_PER_THREAD);
    expect(capped.workers.count).toBe(1);
  });

  test('an exact count (TOLLGATE_SCAN_THREADS) starts its workers before anything is listed; none where none can start', () => {
    expect(listingWorkers({ threads: 3 }, 2).workers.count).toBe(2);
    expect(listingWorkers({ threads: 1 }, 8).workers.count).toBe(0);
    const unspawnable = listingWorkers({ threads: 3 }, 0).workers;
    unspawnable.listed(100 * BYTES_PER_THREAD);
    expect(unspawnable.count).toBe(0);
  });

  test('a worker started before the config gets nothing until it is loaded; then its job, then the whole queue, as plain data', async () => {
    const { workers, posted } = listingWorkers({ threads: 3 }, 2);
    expect(posted).toEqual([]);
    workers.post(setup({ threads: 3, reportRejected: true }));
    const job = expect.objectContaining({ repoRoot: '/repo', baseline: ['f1'], reportRejected: true });
    expect(posted).toEqual([
      { id: 0, message: job },
      { id: 1, message: job },
    ]);
    const claim = new SharedArrayBuffer(4);
    const files = [{ path: 'a.js', absolute: '/repo/a.js', size: 9, read: () => Promise.resolve(null) }];
    const outcomes = await workers.scan(files, claim);
    expect(posted.slice(2)).toEqual([
      { id: 0, message: { files: [{ path: 'a.js', absolute: '/repo/a.js', size: 9 }], claim } },
      { id: 1, message: { files: [{ path: 'a.js', absolute: '/repo/a.js', size: 9 }], claim } },
    ]);
    expect(outcomes.map((outcome) => outcome.scannedFiles)).toEqual([1, 2]);
  });

  test('a worker started after the config gets its job at once', () => {
    const { workers, posted } = listingWorkers({}, 2);
    workers.post(setup());
    expect(posted).toEqual([]);
    workers.listed(BYTES_PER_THREAD);
    expect(posted).toEqual([{ id: 0, message: expect.objectContaining({ repoRoot: '/repo' }) }]);
  });

  test("the config's cap (secrets.maxThreads) ends the workers started before it beyond the cap, and starts no more", () => {
    const { workers, posted, stopped, started } = listingWorkers({}, 8);
    for (let i = 0; i < 3; i++) workers.listed(BYTES_PER_THREAD);
    expect(workers.count).toBe(3);
    workers.post(setup({ maxThreads: 2 }));
    expect(stopped).toEqual([1, 2]);
    expect(workers.count).toBe(1);
    expect(posted).toEqual([{ id: 0, message: expect.objectContaining({ repoRoot: '/repo' }) }]);
    workers.listed(10 * BYTES_PER_THREAD);
    expect(started()).toBe(3);
    const one = listingWorkers({}, 2);
    one.workers.listed(BYTES_PER_THREAD);
    one.workers.post(setup({ maxThreads: 1 }));
    expect([one.stopped, one.workers.count, one.posted]).toEqual([[0], 0, []]);
  });

  test('a cap on the command line (--max-threads 1) starts no worker at all', () => {
    const { workers, started } = listingWorkers({ maxThreads: 1 }, 8);
    workers.listed(100 * BYTES_PER_THREAD);
    expect(started()).toBe(0);
  });

  test('files listed one by one start the workers the same bytes given at once start', () => {
    for (const total of [0, 1, BYTES_PER_THREAD - 1, BYTES_PER_THREAD, 2.5 * BYTES_PER_THREAD, 7 * BYTES_PER_THREAD]) {
      const oneByOne = listingWorkers({}, 8);
      const part = Math.floor(total / 13);
      for (let i = 0; i < 13; i++) oneByOne.workers.listed(part);
      oneByOne.workers.listed(total - part * 13);
      const atOnce = listingWorkers({}, 8);
      atOnce.workers.grow(total);
      expect(oneByOne.workers.count).toBe(atOnce.workers.count);
    }
  });

  test('a config, rules or listing that fails stops the workers started', () => {
    const { workers, stopped } = listingWorkers({ threads: 3 }, 2);
    workers.stop();
    expect(stopped).toEqual([0, 1]);
    expect(workers.count).toBe(0);
  });
});

describe('secrets.maxThreads', () => {
  test.each([[1], [4], [16]])('accepts %s', (maxThreads) => {
    expect(secretsOptionsSchema().parse({ maxThreads }).maxThreads).toBe(maxThreads);
  });

  test.each([[0], [17], [2.5], ['4'], [-1]])('rejects %j, naming the valid values', (maxThreads) => {
    const parsed = secretsOptionsSchema().safeParse({ maxThreads });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['maxThreads'], 'expected a whole number from 1 to 16'],
    ]);
  });

  test('unset by default: one per core', () => {
    expect(secretsOptionsSchema().parse(undefined).maxThreads).toBeUndefined();
  });
});
