import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { indexFileIs } from './index-file-is.js';

/** The check after the validators asks whether `git add` left the snapshot's index byte for byte as it was. */
describe('indexFileIs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('tollgate-index-file-is-');
  });
  afterAll(async () => {
    await removeDir(dir);
  });

  const SLICE = 64 * 1024;

  test('is Buffer.equals of the whole file, for sizes around the slice and a byte changed anywhere', () => {
    const file = join(dir, 'index');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * SLICE + 3 }),
        fc.nat(),
        fc.constantFrom('same', 'byte', 'shorter', 'longer'),
        (size, at, change) => {
          const bytes = Buffer.alloc(size, 0x61);
          for (let index = 0; index < size; index += 97) bytes[index] = index & 0xff;
          let onDisk = Buffer.from(bytes);
          if (change === 'byte' && size > 0) onDisk[at % size] = (onDisk[at % size] ?? 0) ^ 1;
          if (change === 'shorter' && size > 0) onDisk = onDisk.subarray(0, at % size);
          if (change === 'longer') onDisk = Buffer.concat([onDisk, Buffer.from('x')]);
          writeFileSync(file, onDisk);
          expect(indexFileIs(file, bytes)).toBe(onDisk.equals(bytes));
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a byte changed in the last slice of a large index, and a missing file', () => {
    const file = join(dir, 'large');
    const bytes = Buffer.alloc(5 * SLICE + 10, 7);
    const changed = Buffer.from(bytes);
    changed[changed.length - 1] = 8;
    writeFileSync(file, changed);
    expect(indexFileIs(file, bytes)).toBe(false);
    writeFileSync(file, bytes);
    expect(indexFileIs(file, bytes)).toBe(true);
    expect(indexFileIs(join(dir, 'absent'), bytes)).toBe(false);
  });
});
