import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MIN_RUN, printableRuns } from './printable-runs.js';

/** The runs as a byte-by-byte loop finds them: what the regular-expression search must equal exactly. */
function referenceRuns(bytes: Uint8Array, firstLine = 1) {
  const printable = (byte: number) => (byte >= 0x20 && byte <= 0x7e) || byte === 0x09 || byte === 0x0a || byte === 0x0d;
  const newlines: number[] = [];
  for (let at = 0; at < bytes.length; at++) if (bytes[at] === 0x0a) newlines.push(at);
  const out = { text: '', lineMap: [] as number[], runs: 0 };
  const parts: string[] = [];
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const emit = (run: string, start: number) => {
    const trimmed = run.replace(/[\r\n]+$/, '');
    if (trimmed.replace(/\s/g, '').length < MIN_RUN) return;
    const line = firstLine + newlines.filter((at) => at < start).length;
    for (let k = 0; k < trimmed.split('\n').length; k++) out.lineMap.push(line + k);
    parts.push(trimmed);
    out.runs++;
  };
  for (const [width, offset] of [
    [1, 0],
    [2, 0],
    [2, 1],
  ] as const) {
    let start = -1;
    let count = 0;
    const flush = (end: number) => {
      if (start !== -1 && count >= MIN_RUN)
        emit(buffer.toString(width === 1 ? 'latin1' : 'utf16le', start, end), start);
      start = -1;
      count = 0;
    };
    let i = offset;
    for (; i + width <= bytes.length; i += width) {
      if (printable(bytes[i]!) && (width === 1 || bytes[i + 1] === 0)) {
        if (start === -1) start = i;
        count++;
      } else flush(i);
    }
    flush(i);
  }
  out.text = parts.length > 0 ? `${parts.join('\n')}\n` : '';
  return out;
}

/** Bytes made of pieces that form runs (ASCII, UTF-16 of either alignment, line ends) and noise between them. */
const binaryContent = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.stringMatching(/^[ -~\t\r\n]{0,30}$/).map((text) => Buffer.from(text, 'latin1')),
      fc.stringMatching(/^[ -~\t\r\n]{0,20}$/).map((text) => Buffer.from(text, 'utf16le')),
      fc.constantFrom(Buffer.from([0]), Buffer.from([0x0a]), Buffer.from([0xff, 0x00])),
    ),
    { maxLength: 30 },
  )
  .map((pieces) => new Uint8Array(Buffer.concat(pieces)));

describe('printable runs', () => {
  test('are exactly the runs a byte-by-byte loop finds, in its order, on its lines', () => {
    fc.assert(
      fc.property(binaryContent, fc.integer({ min: 1, max: 50 }), (bytes, firstLine) => {
        expect(printableRuns(bytes, firstLine)).toEqual(referenceRuns(bytes, firstLine));
      }),
      { numRuns: 300 },
    );
  });

  test('a run of either UTF-16 alignment next to an ASCII one: ASCII runs first, then even, then odd alignment', () => {
    const bytes = Buffer.concat([
      Buffer.from('\x01plain ascii run\x02'), // 17 bytes: the next run starts at an odd offset
      Buffer.from('wide run, odd!', 'utf16le'),
      Buffer.from([0x03]),
      Buffer.from('wide run, even', 'utf16le'),
      Buffer.from([0x0a, 0x01]),
    ]);
    const runs = printableRuns(bytes);
    expect(runs.text).toBe('plain ascii run\nwide run, even\nwide run, odd!\n');
    expect(runs).toEqual(referenceRuns(bytes));
  });
});
