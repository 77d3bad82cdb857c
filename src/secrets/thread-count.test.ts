import { describe, expect, test } from 'vitest';
import { defaultThreads } from './parallel-scan.js';

/** Workers only where cores are idle and the bytes pay for starting them. */
describe('default scanning threads', () => {
  test('one per idle core, as many as the bytes pay for', () => {
    expect(defaultThreads(500_000_000, 8, 0)).toBe(8);
    expect(defaultThreads(30_000_000, 8, 0)).toBe(2);
    expect(defaultThreads(1_000_000, 8, 0)).toBe(1);
  });

  test('cores the load average keeps busy are not counted; this thread always runs', () => {
    expect(defaultThreads(500_000_000, 8, 5.2)).toBe(3);
    expect(defaultThreads(500_000_000, 2, 0.3)).toBe(2);
    expect(defaultThreads(500_000_000, 2, 1.7)).toBe(1);
    expect(defaultThreads(500_000_000, 2, 8)).toBe(1);
  });
});
