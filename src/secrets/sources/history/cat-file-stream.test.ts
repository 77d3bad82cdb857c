import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type CatFileObject, CatFileStream } from './cat-file-stream.js';

function output(objects: readonly (Buffer | null)[]): Buffer {
  return Buffer.concat(
    objects.map((content, i) =>
      content === null
        ? Buffer.from(`abc${i}^:some path missing\n`)
        : Buffer.concat([
            Buffer.from(`${String(i).padStart(40, '0')} blob ${content.length}\n`),
            content,
            Buffer.from('\n'),
          ]),
    ),
  );
}

describe('CatFileStream', () => {
  test('objects, missing names and objects over the limit, however the output is cut', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.option(
            fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
            { nil: null },
          ),
          {
            maxLength: 8,
          },
        ),
        fc.array(fc.nat(2000), { maxLength: 10 }),
        (objects, cuts) => {
          const bytes = output(objects);
          const got: CatFileObject[] = [];
          const stream = new CatFileStream(32, (object) => got.push(object));
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          let from = 0;
          for (const point of points) {
            stream.push(bytes.subarray(from, point));
            from = point;
          }
          stream.push(bytes.subarray(from));
          expect(got).toEqual(
            objects.map((content) =>
              content === null
                ? { size: 0, content: null, missing: true }
                : { size: content.length, content: content.length <= 32 ? content : null, missing: false },
            ),
          );
        },
      ),
    );
  });
});
