import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseCatFileBatch } from './cat-file-batch.js';

// What `git cat-file --batch` writes for each name: a found object's header, bytes and line feed, or one line saying
// it found none (the name echoed: it may hold spaces, digits, even a word that looks like a type and a size).
const answer = fc.oneof(
  fc.record({
    found: fc.constant(true as const),
    id: fc.stringMatching(/^[0-9a-f]{40}$/),
    type: fc.constantFrom('blob', 'tree', 'commit', 'tag'),
    bytes: fc.uint8Array({ maxLength: 64 }),
  }),
  fc.record({
    found: fc.constant(false as const),
    name: fc.string({ maxLength: 20 }).map((name) => name.replace(/[\n\r]/g, ' ')),
    why: fc.constantFrom('missing', 'ambiguous'),
  }),
);
type Answer = typeof answer extends fc.Arbitrary<infer T> ? T : never;

function output(answers: readonly Answer[]): Buffer {
  return Buffer.concat(
    answers.map((item) =>
      item.found
        ? Buffer.concat([Buffer.from(`${item.id} ${item.type} ${item.bytes.length}\n`), item.bytes, Buffer.from('\n')])
        : Buffer.from(`${item.name} ${item.why}\n`, 'utf8'),
    ),
  );
}

describe('parseCatFileBatch', () => {
  test('gives each name its object, or undefined where git found none', () => {
    fc.assert(
      fc.property(fc.array(answer, { maxLength: 12 }), (answers) => {
        const { objects, complete } = parseCatFileBatch(output(answers), answers.length);
        expect(complete).toBe(true);
        expect(objects).toHaveLength(answers.length);
        answers.forEach((item, at) => {
          const object = objects[at];
          if (!item.found) expect(object).toBeUndefined();
          else
            expect(object && { type: object.type, bytes: [...object.bytes] }).toEqual({
              type: item.type,
              bytes: [...item.bytes],
            });
        });
      }),
    );
  });

  test('an output cut short is incomplete, and never hands on an object cut short', () => {
    fc.assert(
      fc.property(fc.array(answer, { minLength: 1, maxLength: 8 }), fc.nat(), (answers, cut) => {
        const whole = output(answers);
        const short = whole.subarray(0, cut % whole.length);
        const { objects, complete } = parseCatFileBatch(short, answers.length);
        expect(objects).toHaveLength(answers.length);
        expect(complete).toBe(false);
        answers.forEach((item, at) => {
          const object = objects[at];
          if (object && item.found) expect([...object.bytes]).toEqual([...item.bytes]);
        });
      }),
    );
  });
});
