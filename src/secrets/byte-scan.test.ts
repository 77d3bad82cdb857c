import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Utf8ByteView } from './byte-view.js';
import { gateReadOf } from './gates-within-lines.js';
import { maskSecret } from './mask.js';
import { builtinRules } from './rules/index.js';
import { type RawSecret, SecretScanner } from './scanner.js';
import { decodeForScan, decodeText } from './text-decoding.js';

// The scan of a file from its bytes (`byte-scan.ts`) against the scan of its decoded string, on random text: every
// keyword hit's gates are read from tiles of whole lines, here as small as they get (each hit's own line), so every
// line end is a tile's end and every line start a tile's start.

const wholeText = new SecretScanner(builtinRules);
const tiny = new SecretScanner(builtinRules);
tiny.tileBytes = 1;
const usual = new SecretScanner(builtinRules);

/** Secret-shaped tokens from the rules' own samples, each with the name its rule wants next to it. */
const SAMPLES = builtinRules.flatMap((rule, index) =>
  index % 2 === 0 && rule.samples.match.length > 0
    ? [{ key: rule.samples.key ?? 'api_key', value: rule.samples.match[0]! }]
    : [],
);

/** What gates read around a hit: line ends, blank runs, quotes, separators, markup, names before and after. */
const ASCII = [
  '\n',
  '\r\n',
  ' ',
  '\t',
  '    \t  ',
  '"',
  "'",
  '=',
  ': ',
  ':=',
  '=>',
  ',',
  '\\',
  '(',
  ')',
  '[0]',
  '<',
  '>',
  '</key>',
  '{',
  'const x = 1;',
  'password',
  'PASSWORD',
  'secret',
  'token',
  'key',
  'Key',
  'auth',
  'api_key',
  'access',
  '_',
  '-',
  '.',
  '|',
  '1234567890123456',
  'abcdefABCDEF0123456789',
  'define(',
  "define('",
  "', '",
  'Using abyssale ',
  ' token - ',
  'beebole secret key ',
  'storage_account',
  'discord',
  '.',
  'MTE4NDQyMDM5NzE2MjU2MTUzNg',
  '<add key="',
  '" value="',
  '- name: ',
  'value: ',
  '  - value: ',
  '\n    name: ',
  '{value: ',
  ', name: ',
  '"name": "',
  '"value": "',
  '\n    # note',
  '\n    description: ',
  '\n  - ',
  ', type: x',
];
const NON_ASCII = ['\u00a0', 'é', '\u2028', '中文', '😀'];

const piece = (nonAscii: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ASCII) },
    { weight: nonAscii ? 1 : 0, arbitrary: fc.constantFrom(...NON_ASCII) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...SAMPLES),
          fc.constantFrom('=', ': ', '="', '": "', " = '", ' ', '\t=\t', ' \\\n'),
          fc.constantFrom('', '"', "'", '\n', '",\n', ' '),
        )
        .map(([sample, separator, close]) => `${sample.key}${separator}${sample.value}${close}`),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2500 }).map((length) => ' '.repeat(length)) },
    { weight: 1, arbitrary: fc.integer({ min: 300, max: 3500 }).map((length) => 'a=b;'.repeat(length / 4)) },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 12 }).map((value) => value.replace(/[^\x09\x0a\x0d\x20-\x7e]/g, '')),
    },
  );

const text = (nonAscii: boolean) => fc.array(piece(nonAscii), { maxLength: 60 }).map((pieces) => pieces.join(''));
const path = fc.constantFrom('src/app.js', 'config/settings.txt', 'scripts/deploy', 'conf/site.xml', 'README.md');
const OPTIONS = { keepAllowed: true, keepRejected: true };

function summary(found: readonly RawSecret[]): string[] {
  return found.map(
    (item) =>
      `${item.rule.id} ${item.line}:${item.column} ${item.start}-${item.end} ${maskSecret(item.secret)} ` +
      `${createHash('sha256').update(item.secret).digest('hex').slice(0, 12)} ${item.rejected ?? ''} ${item.allowedBy ?? ''}`,
  );
}

/** The scan from the bytes as `scan-targets.ts` runs it, by `scanner`; null when the bytes are binary. */
function fromBytes(scanner: SecretScanner, bytes: Buffer, at: string): { found: RawSecret[]; viewed: boolean } | null {
  const decoded = decodeForScan(bytes);
  if (decoded === null) return null;
  if (!(decoded instanceof Utf8ByteView))
    return { found: scanner.scanText(decoded.text, { path: at, ...OPTIONS }), viewed: false };
  const raw = scanner.scanView(decoded, { path: at, ...OPTIONS });
  return { found: raw ?? scanner.scanText(decoded.utf8(), { path: at, ...OPTIONS }), viewed: raw !== null };
}

function encode(value: string, how: string): Buffer {
  if (how === 'latin1') return Buffer.from(value.replace(/[^\x00-\xff]/g, '?'), 'latin1');
  if (how === 'utf-16le bom') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(value, 'utf16le')]);
  return Buffer.from(value, 'utf8');
}

describe('a file scanned from its bytes', () => {
  test('ASCII: the same results as its string, with tiles of one line and of 64 KB', () => {
    let viewed = 0;
    fc.assert(
      fc.property(text(false), path, (value, at) => {
        const bytes = Buffer.from(value, 'latin1');
        const expected = summary(wholeText.scanText(value, { path: at, ...OPTIONS }));
        const small = fromBytes(tiny, bytes, at)!;
        if (small.viewed) viewed++;
        expect(summary(small.found)).toEqual(expected);
        expect(summary(fromBytes(usual, bytes, at)!.found)).toEqual(expected);
      }),
      { numRuns: 500, seed: 4545 },
    );
    expect(viewed).toBeGreaterThan(400);
  });

  test('UTF-8, Latin-1 and UTF-16: the same results as the decoded text, with tiles of one line', () => {
    fc.assert(
      fc.property(text(true), fc.constantFrom('utf-8', 'latin1', 'utf-16le bom'), path, (value, how, at) => {
        const bytes = encode(value, how);
        const decoded = decodeText(bytes);
        const expected = decoded ? summary(wholeText.scanText(decoded.text, { path: at, ...OPTIONS })) : null;
        const actual = fromBytes(tiny, bytes, at);
        expect(actual === null ? null : summary(actual.found)).toEqual(expected);
      }),
      { numRuns: 300, seed: 4546 },
    );
  });

  test("every rule's samples, in its own contexts or as an assignment, after a line and a blank run", () => {
    let compared = 0;
    for (const rule of builtinRules) {
      const key = rule.samples.key ?? 'value';
      const contexts = rule.samples.contexts ?? [
        { path: '.env', render: (v: string) => `# settings\n${key}=${v}\n` },
        { path: 'src/settings.ts', render: (v: string) => `const a = {\n  ${key}: ${JSON.stringify(v)},\n};\n` },
      ];
      for (const sample of [...rule.samples.match.slice(0, 2), ...rule.samples.ignore.slice(0, 1)]) {
        for (const context of contexts) {
          for (const value of [context.render(sample), `x = 1;\n${'  \t'.repeat(40)}${context.render(sample)}`]) {
            const bytes = Buffer.from(value, 'utf8');
            const expected = summary(wholeText.scanText(decodeText(bytes)!.text, { path: context.path, ...OPTIONS }));
            const actual = fromBytes(tiny, bytes, context.path);
            expect(actual === null ? null : summary(actual.found), `${rule.id} in ${context.path}`).toEqual(expected);
            if (actual?.viewed) compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  test('a hit at the very start, at a line start and at the end; CRLF lines; a blank run across a tile', () => {
    const sample = SAMPLES.find((item) => item.key === 'api_key') ?? SAMPLES[0]!;
    for (const value of [
      `password = "${sample.value}"`,
      `${sample.key}=${sample.value}`,
      `x\r\n${sample.key}${' '.repeat(3000)}=${sample.value}\r\n`,
      `${'a=b;'.repeat(400)}\n- name: DB_PASSWORD\n  value: ${sample.value}\n`,
      `<add key="password" value="${sample.value}" />\npassword`,
    ]) {
      const expected = summary(wholeText.scanText(value, { path: 'config/settings.txt', ...OPTIONS }));
      const view = new Utf8ByteView(Buffer.from(value, 'latin1'), true);
      expect(summary(tiny.scanView(view, { path: 'config/settings.txt', ...OPTIONS })!)).toEqual(expected);
    }
  });

  test('an env entry written value first: the window reads the line before, alike in bytes and in characters', () => {
    const sample = 'q8Zr3LmN5pXv7TbW2yKd9HfJ4sGc6AeQ';
    const pair = (line: string) => `${line}\n    name: API_TOKEN\n`;
    const cases = [
      pair(`  - value: ${sample}`),
      pair(`  - value: "${sample}"`),
      `é\n${pair(`  - value: ${sample}`)}`,
      // A line before the name's that is short in characters and long in bytes, or long in both, or short in both.
      pair(`  - value: ${sample} ${'é'.repeat(400)}`),
      pair(`  - value: ${'é'.repeat(900)}`),
      pair(`  - value: ${'a'.repeat(1100)}`),
      pair(`  - value: ${sample}${' '.repeat(1000)}`),
      pair(`  - value: "${sample}", ${'é'.repeat(120)}`),
      `x: 1\n${' '.repeat(1030)}\n    name: API_TOKEN\n`,
      `{"value": "${sample}",\n "name": "API_TOKEN"}\n`,
      `[{value: ${sample}, name: API_TOKEN}, {value: ${'é'.repeat(3)}, name: API_TOKEN}]\n`,
    ];
    let found = 0;
    for (const value of cases) {
      const bytes = Buffer.from(value, 'utf8');
      const expected = summary(wholeText.scanText(decodeText(bytes)!.text, { path: 'config/env.txt', ...OPTIONS }));
      const actual = fromBytes(tiny, bytes, 'config/env.txt');
      expect(actual === null ? null : summary(actual.found), JSON.stringify(value.slice(0, 40))).toEqual(expected);
      found += expected.filter((item) => item.startsWith('generic-secret-k8s-env')).length;
    }
    expect(found).toBeGreaterThanOrEqual(5);
  });

  test('an env entry with lines of its item between name and value: its lines either side, alike in bytes and in characters', () => {
    const sample = 'q8Zr3LmN5pXv7TbW2yKd9HfJ4sGc6AeQ';
    const between = (lines: string[]) => lines.map((line) => `    ${line}\n`).join('');
    const nameFirst = (lines: string[]) => `  - name: API_TOKEN\n${between(lines)}    value: ${sample}\n`;
    const valueFirst = (lines: string[]) => `  - value: ${sample}\n${between(lines)}    name: API_TOKEN\n`;
    const cases = [nameFirst, valueFirst].flatMap((item) => [
      item(['# note']),
      item(['# é note', 'description: café']),
      item(['a: 1', 'b: 2', 'c: 3', 'd: 4', 'e: 5', 'f: 6']),
      // A line between that is short in characters and long in bytes, or long in both, or short in both.
      item([`# ${'é'.repeat(400)}`]),
      item([`# ${'é'.repeat(900)}`]),
      item([`# ${'a'.repeat(1100)}`]),
      item(['# x', `d: ${' '.repeat(1000)}`, '# y']),
      `${'é'.repeat(600)}\n${'x: 1\n'.repeat(3)}${item(['# c'])}`,
      `${item(['# c'])}${'y: 2\n'.repeat(3)}${'é'.repeat(600)}\n`,
    ]);
    let found = 0;
    for (const value of cases) {
      const bytes = Buffer.from(value, 'utf8');
      const expected = summary(wholeText.scanText(decodeText(bytes)!.text, { path: 'config/env.txt', ...OPTIONS }));
      for (const scanner of [tiny, usual]) {
        const actual = fromBytes(scanner, bytes, 'config/env.txt');
        expect(actual === null ? null : summary(actual.found), JSON.stringify(value.slice(0, 60))).toEqual(expected);
      }
      found += expected.filter((item) => item.startsWith('generic-secret-k8s-env')).length;
    }
    expect(found).toBeGreaterThanOrEqual(10);
  });

  test('ASCII comes as a view of its bytes (a source map too, parsed from its one-byte reading)', () => {
    const bytes = Buffer.from('const a = 1;\n');
    expect(decodeForScan(bytes)).toEqual(new Utf8ByteView(bytes, true));
    expect(decodeText(bytes)).toEqual({ text: 'const a = 1;\n', encoding: 'utf-8' });
  });
});

describe('GateRead.crossesLine', () => {
  test('true only when something may be read after a line feed', () => {
    expect(gateReadOf(/[A-Za-z0-9_.-]{0,40}["']?[ \t]*\r?\n/).crossesLine).toBe(false);
    expect(gateReadOf(/[A-Za-z0-9_.-]{0,30}(?:"[ \t]*(?:[,{\r\n]|value[ \t]*=)|<\/(?:name|key)>)/).crossesLine).toBe(
      false,
    );
    expect(gateReadOf(/[ \t]*[=:]/).crossesLine).toBe(false);
    expect(gateReadOf(/a\nb/).crossesLine).toBe(true);
    expect(gateReadOf(/a\n$/).crossesLine).toBe(true);
    expect(gateReadOf(/(?:\n)+/).crossesLine).toBe(true);
    expect(gateReadOf(/[^x]*y/).crossesLine).toBe(true);
    expect(gateReadOf(/(?:a\n|b)c/).crossesLine).toBe(true);
  });

  test('no built-in gate reads past its line feed, so every file that is not YAML is scanned from its bytes', () => {
    const crossing = [...new Set(builtinRules.flatMap((rule) => (rule.gate ? [rule.gate] : [])))].filter(
      (gate) => gateReadOf(gate).crossesLine,
    );
    expect(crossing.map((gate) => gate.source)).toEqual([]);
    expect(usual.scanView(new Utf8ByteView(Buffer.from('token = 1\n'), true), { path: 'src/app.js' })).toEqual([]);
  });
});
