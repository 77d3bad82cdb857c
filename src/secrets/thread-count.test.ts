import { readFileSync } from 'node:fs';
import { describe, expect, test, vi } from 'vitest';
import { secretsOptionsSchema } from './options.js';

// Whatever the load average says, the count must not change: the chooser is tested with it mocked to a busy machine.
vi.mock('node:os', async (original) => ({
  ...(await original<typeof import('node:os')>()),
  loadavg: () => [40, 40, 40],
}));

const { BYTES_PER_THREAD, chooseThreads, defaultThreads } = await import('./parallel-scan.js');

/** Workers sized by the cores and the bytes to scan, capped by `--max-threads` / `secrets.maxThreads`. */
describe('scanning threads', () => {
  test('one per core, as many as the bytes pay for (a worker per 24 MB beyond the first)', () => {
    expect(BYTES_PER_THREAD).toBe(24_000_000);
    expect(defaultThreads(500_000_000, 8)).toBe(8);
    expect(defaultThreads(500_000_000, 2)).toBe(2);
    expect(defaultThreads(30_000_000, 8)).toBe(2);
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

describe('secrets.maxThreads', () => {
  test.each([[1], [4], [16]])('accepts %s', (maxThreads) => {
    expect(secretsOptionsSchema.parse({ maxThreads }).maxThreads).toBe(maxThreads);
  });

  test.each([[0], [17], [2.5], ['4'], [-1]])('rejects %j, naming the valid values', (maxThreads) => {
    const parsed = secretsOptionsSchema.safeParse({ maxThreads });
    expect(parsed.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['maxThreads'], 'expected a whole number from 1 to 16'],
    ]);
  });

  test('unset by default: one per core', () => {
    expect(secretsOptionsSchema.parse(undefined).maxThreads).toBeUndefined();
  });
});
