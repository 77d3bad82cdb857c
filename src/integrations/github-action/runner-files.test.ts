import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runnerFileEntry } from './runner-files.js';

/** Reads entries back the way the runner does: `name<<DELIM`, then lines up to the first line equal to DELIM. */
function parseEntries(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!m?.[1] || !m[2]) continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) body.push(lines[i] ?? '');
    out[m[1]] = body.join('\n');
  }
  return out;
}

describe('runnerFileEntry', () => {
  it('round-trips any value, even one containing the first delimiter drawn', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const draws = ['EOF', 'EOF', 'X1'];
        const value = `${a}\nEOF\n${b}`.replace(/\r/g, '');
        const text = runnerFileEntry('report', value, () => draws.shift() ?? 'Z9') + runnerFileEntry('verdict', 'fail');
        expect(parseEntries(text)).toEqual({ report: value, verdict: 'fail' });
      }),
    );
  });

  it('rejects names the runner would misread', () => {
    expect(() => runnerFileEntry('a<<b', 'x')).toThrow(/runner output name "a<<b" is invalid/);
  });
});
