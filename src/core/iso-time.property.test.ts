import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  test('is toISOString for every date, valid or not', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -8.64e15, max: 8.64e15 }), fc.double()), (ms) => {
        const date = new Date(ms);
        let expected: string;
        try {
          expected = date.toISOString();
        } catch (error) {
          expect(() => isoTime(date)).toThrow((error as Error).constructor as ErrorConstructor);
          return;
        }
        expect(isoTime(date)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  test('around the ends of four-digit years and of each unit', () => {
    for (const text of ['0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z', '2024-02-29T09:05:07.008Z'])
      expect(isoTime(new Date(text))).toBe(text);
    expect(isoTime(new Date(Date.UTC(10000, 0, 1)))).toBe('+010000-01-01T00:00:00.000Z');
    expect(isoTime(new Date(Date.UTC(-1, 0, 1)))).toBe('-000001-01-01T00:00:00.000Z');
  });
});
