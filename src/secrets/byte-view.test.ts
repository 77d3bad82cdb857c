import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Utf8ByteView } from './byte-view.js';
import { maskSecret } from './mask.js';
import { builtinRules } from './rules/index.js';
import { scanTargets } from './scan-targets.js';
import { type RawSecret, SecretScanner } from './scanner.js';
import { decodeForScan, decodeText } from './text-decoding.js';

const scanner = new SecretScanner(builtinRules);

/** Secret-shaped tokens from the rules' own samples, each with the name its rule wants next to it. */
const SAMPLES = builtinRules.flatMap((rule, index) =>
  index % 3 === 0 && rule.samples.match.length > 0
    ? [{ key: rule.samples.key ?? 'api_key', value: rule.samples.match[0]! }]
    : [],
);

const NON_ASCII = ['\u00a0', '\u0085', '\u2028', '\u2029', '\ufeff', 'é', 'ü', 'ſ', '\u212a', 'ÿ', '中文', '😀', 'Ω'];
const ASCII = ['\n', ' ', '\t', '\r\n', '"', "'", '=', ': ', ',', 'const x = 1;', 'password', 'token', 'key', '.', '|'];

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ASCII) },
  { weight: 3, arbitrary: fc.constantFrom(...NON_ASCII) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...SAMPLES),
        fc.constantFrom('=', ': ', '="', '": "', " = '", '\u00a0=\u00a0', ' '),
        fc.constantFrom('', '"', "'", 'é', '\u2028'),
      )
      .map(([sample, separator, close]) => `${sample.key}${separator}${sample.value}${close}`),
  },
  // Long runs: minified lines around the 1,000-character line limit and past a window's reach.
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 3500 }).map((length) => 'a=b;'.repeat(length / 4)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
const encoding = fc.constantFrom('utf-8', 'utf-8 bom', 'latin1', 'utf-16le bom');
const path = fc.constantFrom('src/app.js', 'config/settings.txt', 'scripts/deploy', 'deploy/values.yaml', 'README.md');

function encode(value: string, how: string): Buffer {
  if (how === 'latin1') return Buffer.from(value.replace(/[^\x00-\xff]/g, '?'), 'latin1');
  if (how === 'utf-16le bom') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(value, 'utf16le')]);
  const bytes = Buffer.from(value, 'utf8');
  return how === 'utf-8 bom' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) : bytes;
}

/** What a result says, the secret masked and fingerprinted (never printed whole). */
function summary(found: readonly RawSecret[]): string[] {
  return found.map(
    (item) =>
      `${item.rule.id} ${item.line}:${item.column} ${item.start}-${item.end} ${maskSecret(item.secret)} ` +
      `${createHash('sha256').update(item.secret).digest('hex').slice(0, 12)} ${item.rejected ?? ''} ${item.allowedBy ?? ''}`,
  );
}

let viewed = 0;
/** Scans of UTF-8 that is not all ASCII (read one byte per unit of the decoded text, `unit-bytes.ts`) with results. */
let fromUnits = 0;

/**
 * The scan as `scan-targets.ts` runs it: from the bytes, through the byte view for UTF-8 that is not all ASCII (here
 * whatever its share of non-ASCII blocks, which only decides whether the view is likely to pay).
 */
function scanBytes(bytes: Buffer, at: string): RawSecret[] | null {
  const decoded = decodeForScan(bytes);
  if (decoded === null) return null;
  const options = { path: at, keepAllowed: true, keepRejected: true };
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const view =
    decoded instanceof Utf8ByteView
      ? decoded
      : decoded.encoding === 'utf-8' && !isAscii(bytes)
        ? new Utf8ByteView(bytes.subarray(bom))
        : null;
  if (view === null) return scanner.scanText((decoded as { text: string }).text, options);
  const raw = scanner.scanView(view, options);
  if (raw !== null) viewed++;
  if (raw !== null && !view.ascii && raw.length > 0) fromUnits++;
  return raw ?? scanner.scanText(view.utf8(), options);
}

describe('a UTF-8 file read a byte per character', () => {
  test('finds what the decoded text gives: rule, line, column, offsets and value, on random mixed text', () => {
    viewed = 0;
    fromUnits = 0;
    fc.assert(
      fc.property(text, encoding, path, (value, how, at) => {
        const bytes = encode(value, how);
        const decoded = decodeText(bytes);
        const expected = decoded
          ? summary(scanner.scanText(decoded.text, { path: at, keepAllowed: true, keepRejected: true }))
          : null;
        const actual = scanBytes(bytes, at);
        expect(actual === null ? null : summary(actual)).toEqual(expected);
      }),
      { numRuns: 400, seed: 45 },
    );
    // The byte reading itself was what answered in many of the runs, not only the decoded text it falls back to; and
    // many of those with results were of non-ASCII text, read as the decoded text's units.
    expect(viewed).toBeGreaterThan(25);
    expect(fromUnits).toBeGreaterThan(25);
  });

  test('scanTargets reports the same findings from the bytes as from the decoded text', async () => {
    await fc.assert(
      fc.asyncProperty(text, path, async (value, at) => {
        const bytes = encode(value, 'utf-8');
        const fromBytes = await scanTargets([{ path: at, read: async () => bytes }], { scanner });
        const decoded = decodeText(bytes)!.text;
        const fromText = await scanTargets([{ path: at, read: async () => decoded }], { scanner });
        expect(fromBytes.findings).toEqual(fromText.findings);
        expect(fromBytes.suppressed).toEqual(fromText.suppressed);
      }),
      { numRuns: 60, seed: 7 },
    );
  });

  test('UTF-8 is read as bytes however dense its non-ASCII text, one byte per unit of the decoded text', () => {
    const sparse = Buffer.from(`const title = "Grüße";\n${'x = 1;\n'.repeat(200_000)}`);
    expect(decodeForScan(sparse)).toBeInstanceOf(Utf8ByteView);
    const text = 'password = "Grüße"\npassword = "Gr\u00fc\u00dfe-\u{1f511}-7Qx9Lp2ZkV"\n'.repeat(20_000);
    const view = decodeForScan(Buffer.from(text));
    expect(view).toBeInstanceOf(Utf8ByteView);
    const raw = scanner.scanView(view as Utf8ByteView, { path: 'config/settings.txt' });
    expect(summary(raw!)).toEqual(summary(scanner.scanText(text, { path: 'config/settings.txt' })));
  });

  test('a secret after non-ASCII text, or beside it on its line, is found where the decoded text has it', () => {
    const sample = SAMPLES.find((item) => item.key === 'api_key') ?? SAMPLES[0]!;
    const far = `const title = "Grüße 😀";\n${'x = 1;\n'.repeat(400)}${sample.key}=${sample.value}\n`;
    const raw = scanner.scanView(new Utf8ByteView(Buffer.from(far)), { path: 'config/settings.txt' });
    expect(raw!.length).toBeGreaterThan(0);
    expect(summary(raw!)).toEqual(summary(scanner.scanText(far, { path: 'config/settings.txt' })));
    const near = `😀 ${sample.key}=${sample.value} # Grüße\n`;
    const nearRaw = scanner.scanView(new Utf8ByteView(Buffer.from(near)), { path: 'config/settings.txt' });
    expect(nearRaw!.length).toBeGreaterThan(0);
    expect(summary(nearRaw!)).toEqual(summary(scanner.scanText(near, { path: 'config/settings.txt' })));
  });
});
