import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseEventLog } from './reader.js';

const envelope = (id: string, type: string, data: unknown, parentId: string | null = null) =>
  JSON.stringify({ id, parentId, timestamp: '2026-11-23T10:56:00.000Z', type, data });

const start = envelope('e1', 'tool.execution_start', { toolCallId: 'c1', toolName: 'checks', arguments: {} });
const complete = envelope(
  'e2',
  'tool.execution_complete',
  { toolCallId: 'c1', toolName: 'checks', success: true, durationMs: 3 },
  'e1',
);

describe('parseEventLog', () => {
  test('reads a complete log', () => {
    const read = parseEventLog(`${start}\n${complete}\n`);
    expect(read.problems).toEqual([]);
    expect(read.truncatedLastLine).toBe(false);
    expect(read.events.map((entry) => [entry.known, entry.line, entry.event.id])).toEqual([
      [true, 1, 'e1'],
      [true, 2, 'e2'],
    ]);
  });

  test('tolerates a last line cut off mid-write, and says so', () => {
    const read = parseEventLog(`${start}\n${complete.slice(0, 40)}`);
    expect(read.events).toHaveLength(1);
    expect(read.truncatedLastLine).toBe(true);
    expect(read.problems).toEqual([
      { line: 2, message: 'cut off mid-line (the run was killed while writing it); ignored' },
    ]);
  });

  test('a complete last line without its newline still counts', () => {
    expect(parseEventLog(`${start}\n${complete}`).events).toHaveLength(2);
  });

  test.each([
    ['a broken line in the middle', `${start}\n{oops\n${complete}\n`, /^not valid JSON \(.+\); ignored$/],
    [
      'a line that is not an envelope',
      `${start}\n{"type":"x"}\n${complete}\n`,
      /^not an event envelope \(id: .+\); ignored$/,
    ],
  ])('skips %s and reads on', (_case, text, message) => {
    const read = parseEventLog(text);
    expect(read.events.map((entry) => entry.event.id)).toEqual(['e1', 'e2']);
    expect(read.problems).toEqual([{ line: 2, message: expect.stringMatching(message) }]);
    expect(read.truncatedLastLine).toBe(false);
  });

  test('keeps events of unknown types generically', () => {
    const read = parseEventLog(`${envelope('e9', 'session.future_thing', { anything: [1, 2] })}\n`);
    expect(read.problems).toEqual([]);
    expect(read.events).toEqual([
      {
        known: false,
        line: 1,
        event: expect.objectContaining({ type: 'session.future_thing', data: { anything: [1, 2] } }),
      },
    ]);
  });

  test('a known type with data that does not match is kept as unknown, with a problem', () => {
    const read = parseEventLog(`${envelope('e3', 'run.end', { runId: 'r', verdict: 'maybe', durationMs: 1 })}\n`);
    expect(read.events[0]!.known).toBe(false);
    expect(read.problems).toEqual([
      { line: 1, message: expect.stringMatching(/^run\.end: verdict: .+; kept as an unknown event$/) },
    ]);
  });

  test('ignores blank lines', () => {
    expect(parseEventLog(`\n${start}\n\n`).events).toHaveLength(1);
  });

  test('property: any prefix of a valid log (a kill at any byte) reads as the complete lines, never throws', () => {
    const lineArb = fc
      .record({
        id: fc.uuid(),
        message: fc.string({ maxLength: 200 }),
        unicode: fc.string({ unit: 'grapheme', maxLength: 20 }),
      })
      .map(({ id, message, unicode }) =>
        envelope(id, 'tool.execution_progress', { toolCallId: 'c1', progressMessage: `${message}${unicode}\n\u2028` }),
      );
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), fc.nat(), (lines, cutSeed) => {
        const text = lines.map((line) => `${line}\n`).join('');
        const cut = cutSeed % (text.length + 1);
        const prefix = text.slice(0, cut);
        const read = parseEventLog(prefix);
        const completeLines = prefix.split('\n').length - 1;
        const partial = prefix.slice(prefix.lastIndexOf('\n') + 1);
        const partialIsWhole = partial !== '' && lines.includes(partial);
        expect(read.events).toHaveLength(completeLines + (partialIsWhole ? 1 : 0));
        expect(read.truncatedLastLine).toBe(partial !== '' && !partialIsWhole);
        expect(read.problems).toHaveLength(read.truncatedLastLine ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });
});
