import { describe, expect, test } from 'vitest';
import type { CatFileObject } from './cat-file-stream.js';
import { type CatFileReads, joinedReads } from './cat-file-targets.js';

const object: CatFileObject = { size: 0, content: null, missing: true };

function recording(label: string, names: string[], seen: string[]): CatFileReads {
  return {
    names,
    onObject: (_object, index) => {
      seen.push(`${label}${index}:${names[index]}`);
      return null;
    },
  };
}

describe('joinedReads', () => {
  test('asks for every list in order, and hands each object to its own list with its own index', () => {
    const seen: string[] = [];
    const joined = joinedReads([
      recording('binary', ['b0', 'b1'], seen),
      recording('none', [], seen),
      recording('message', ['m0', 'm1', 'm2'], seen),
    ]);
    expect(joined.names).toEqual(['b0', 'b1', 'm0', 'm1', 'm2']);
    for (let index = 0; index < joined.names.length; index++) joined.onObject(object, index);
    expect(seen).toEqual(['binary0:b0', 'binary1:b1', 'message0:m0', 'message1:m1', 'message2:m2']);
  });

  test('lists that ask for nothing ask for nothing together', () => {
    expect(joinedReads([recording('a', [], []), recording('b', [], [])]).names).toEqual([]);
  });
});
