import { describe, expect, test } from 'vitest';
import { lazy } from './lazy.js';

describe('lazy', () => {
  test('builds on the first call only, and keeps even a falsy value', () => {
    let builds = 0;
    const value = lazy(() => {
      builds += 1;
      return 0;
    });
    expect(builds).toBe(0);
    expect(value()).toBe(0);
    expect(value()).toBe(0);
    expect(builds).toBe(1);
  });
});
