import { expect, test } from 'vitest';
import { cpuMs } from '../../test/support/cpu-time.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';

const scanner = new SecretScanner(builtinRules);

/** One line of JSON whose keys are credential names and whose values name them (`bench/scale.mjs dense`'s third). */
function identifierJson(size: number): string {
  const keys = ['password', 'api_key', 'token', 'secret', 'client_secret', 'auth_token', 'access_key', 'private_key'];
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const part = `"${keys[i % keys.length]}_${i}": "cfg_${keys[(i + 3) % keys.length]}_${i}",`;
    parts.push(part);
    length += part.length + 1;
  }
  return `{${parts.join(' ')} "end": 1}\n`;
}

test('a copy of the text scanned last (a duplicated file, next in the queue) scans as fast as another text', () => {
  const text = identifierJson(600_000);
  // The same length, other content (from its first character on).
  const other = ` ${text.slice(1)}`;
  // CPU time, not wall time: waiting for a core on a busy machine is not the scanner's cost.
  const time = (input: string) => cpuMs(() => expect(scanner.scanText(input, { path: 'a.json' })).toEqual([]));
  time(text); // warm up the regexes and the engine
  time(other);
  const alternating = Math.min(time(text), time(other));
  // Equal content, another string: what reading the same bytes from a second file gives. Each keyword hit's gate
  // check once compared the whole text with the last one it saw, character by character: a 2 MB copy took minutes.
  const copy = () => Buffer.from(other, 'latin1').toString('latin1');
  const copied = Math.min(time(copy()), time(copy()));
  expect(copied, `another text ${alternating.toFixed(1)} ms, a copy ${copied.toFixed(1)} ms`).toBeLessThan(
    Math.max(alternating * 4, 150),
  );
  // The same length and content but for the end: equal up to there, so each comparison read all of it too.
  const nearCopy = () => `${text.slice(0, -3)}2}\n`;
  const afterText = () => {
    time(text);
    return time(nearCopy());
  };
  const near = Math.min(afterText(), afterText());
  expect(near, `another text ${alternating.toFixed(1)} ms, a near copy ${near.toFixed(1)} ms`).toBeLessThan(
    Math.max(alternating * 4, 150),
  );
});
