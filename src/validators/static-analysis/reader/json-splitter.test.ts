import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type JsonPath, JsonSplitter, JsonSyntaxError, type ValueDecision } from './json-splitter.js';

/** Feeds `text` in chunks cut at the given offsets and returns every captured value, parsed, with its path. */
function split(text: string, cuts: number[], decide: (path: JsonPath) => ValueDecision) {
  const captured: { path: JsonPath; value: unknown }[] = [];
  const closed: JsonPath[] = [];
  const splitter = new JsonSplitter({
    decide,
    onValue: (path, raw) => captured.push({ path, value: JSON.parse(raw) }),
    onClose: (path) => closed.push(path),
  });
  const bytes = Buffer.from(text);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const at = Math.min(cut, bytes.length);
    splitter.write(bytes.subarray(from, Math.max(from, at)));
    from = Math.max(from, at);
  }
  splitter.write(bytes.subarray(from));
  splitter.end();
  return { captured, closed };
}

const membersOfRoot = (path: JsonPath): ValueDecision => (path.length === 0 ? 'descend' : 'capture');

describe('JsonSplitter', () => {
  test('hands out every member of the root, whatever the chunk boundaries', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (object, cuts, pretty) => {
          const text = JSON.stringify(object, null, pretty ? 2 : 0);
          const { captured } = split(text, cuts, membersOfRoot);
          expect(Object.fromEntries(captured.map(({ path, value }) => [path[0], value]))).toEqual(
            JSON.parse(JSON.stringify(object)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  test('descends into nested arrays and reports closed containers', () => {
    const text = '{"runs":[{"tool":{"n":"é"},"results":[{"a":1},{"b":"]}\\""}]},{"results":[]}],"x":[1,2]}';
    const decide = (path: JsonPath): ValueDecision =>
      path.length <= 2 || path[2] === 'results' ? (path.length === 4 ? 'capture' : 'descend') : 'skip';
    for (const cut of [1, 5, 20, 33, 40, 50]) {
      const { captured, closed } = split(text, [cut], decide);
      expect(captured).toEqual([
        { path: ['runs', 0, 'results', 0], value: { a: 1 } },
        { path: ['runs', 0, 'results', 1], value: { b: ']}"' } },
      ]);
      expect(closed).toContainEqual(['runs', 0]);
      expect(closed).toContainEqual(['runs', 1]);
    }
  });

  test.each([
    [
      'a truncated document',
      '{"runs":[{"results":[{"a":1}',
      'unexpected end of input (is the file truncated?) at byte 28',
    ],
    ['a missing colon', '{"runs" []}', 'expected ":" at byte 8'],
    ['a stray character', '{"runs":[],}', 'expected a property name at byte 11'],
    ['garbage after the document', '{} x', 'unexpected "x" after the document at byte 3'],
  ])('rejects %s', (_name, text, message) => {
    expect(() => split(text, [], membersOfRoot)).toThrow(JsonSyntaxError);
    expect(() => split(text, [], membersOfRoot)).toThrow(message);
  });
});
