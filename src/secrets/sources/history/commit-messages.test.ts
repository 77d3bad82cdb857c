import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { headerEnd } from './commit-messages.js';

describe('headerEnd', () => {
  test('finds the first empty line as Buffer#indexOf does', () => {
    const bytes = fc.array(fc.constantFrom(0x0a, 0x0a, 0x20, 0x61, 0x00, 0xff), { maxLength: 40 });
    fc.assert(
      fc.property(bytes, (list) => {
        const commit = Buffer.from(list);
        expect(headerEnd(commit)).toBe(commit.indexOf('\n\n'));
      }),
    );
  });
});
