import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { exactText } from './stamp-repo-files.js';

// The refs' text is hashed into the stamp and compared with the saved evidence: two ref files with different bytes
// must never read as one text. `exactText` reads a file as UTF-8 (Node's quickest read) and gives a text only when
// that text encodes back to exactly the file's bytes; Latin-1, before, was exact for every byte.
const dir = mkdtempSync(join(tmpdir(), 'tollgate-exact-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'ref');

/** Bytes as ref files may hold them: ASCII, UTF-8 of any code point, and stray bytes no decoder accepts. */
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 24 }).map((text) => new Uint8Array(Buffer.from(text, 'utf8'))),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.uint8Array({ minLength: 1, maxLength: 4 }))
    .map(([text, stray]) => new Uint8Array(Buffer.concat([Buffer.from(text, 'utf8'), stray]))),
);

describe('exactText', () => {
  test('a text it gives is its file bytes, exactly', () => {
    fc.assert(
      fc.property(bytes, (content) => {
        writeFileSync(file, content);
        const text = exactText(file);
        if (text !== undefined) expect(Buffer.from(text, 'utf8').equals(Buffer.from(content))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test('UTF-8 without U+FFFD is always read, anything else never is', () => {
    fc.assert(
      fc.property(bytes, (content) => {
        writeFileSync(file, content);
        const decoded = Buffer.from(content).toString('utf8');
        const exact = Buffer.from(decoded, 'utf8').equals(Buffer.from(content)) && !decoded.includes('\uFFFD');
        expect(exactText(file)).toBe(exact ? decoded : undefined);
      }),
      { numRuns: 500 },
    );
  });
});
