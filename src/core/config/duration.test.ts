import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { durationSchema } from './duration.js';
import { formatDuration, formatSize, parseDuration, parseSize } from './units.js';

describe('durations and sizes', () => {
  test.each([
    { ms: 250, text: '250ms' },
    { ms: 90_000, text: '1m30s' },
    { ms: 600_000, text: '10m' },
    { ms: 5_400_000, text: '1h30m' },
  ])('$ms ms is written "$text"', ({ ms, text }) => {
    expect(formatDuration(ms)).toBe(text);
    expect(parseDuration(text)).toBe(ms);
  });

  test.each([
    [599_999, '10m'],
    [59_960, '1m'],
    [1_500, '1.5s'],
    [3_600_000, '1h'],
  ])('%d ms rounds before it splits: "%s", never "9m60s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  test.each(['99999999h', '25h', 1e9])('an absurd duration (%j) is a config error, not a 1 ms timer', (value) => {
    const parsed = durationSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^expected a duration of at most 24h, got /);
  });

  test.each([
    { bytes: 1_000_000, text: '1MB' },
    { bytes: 512 * 1024, text: '512KiB' },
    { bytes: 3 * 1024 ** 3, text: '3GiB' },
    { bytes: 1234, text: '1234B' },
  ])('$bytes bytes is written "$text"', ({ bytes, text }) => {
    expect(formatSize(bytes)).toBe(text);
  });

  test('a written size parses back to the same number of bytes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (bytes) => parseSize(formatSize(bytes)) === bytes));
  });

  test('a written whole-second duration parses back to the same milliseconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        (seconds) => parseDuration(formatDuration(seconds * 1000)) === seconds * 1000,
      ),
    );
  });
});
