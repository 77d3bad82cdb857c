import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { emptyScanOutcome, type ScanOutcome, scanContent } from './scan-targets.js';
import { SecretScanner } from './scanner.js';
import { decodeText, isMultiByteUtf8 } from './text-decoding.js';

/**
 * The byte path (`SecretScanner.scanUtf8`: prefilter over a UTF-8 file's bytes, only the lines around hits decoded)
 * against the string path (the whole file decoded, then `scanText`), on random files with the rules' own match samples
 * planted in them, next to characters of two, three and four bytes: the findings, their places (lines, columns and
 * offsets in UTF-16 code units), fingerprints and masked values, and the rejected candidates must be the same. ASCII,
 * Latin-1 and UTF-16 files go through `scanContent` too, and must come out as their decoded text does.
 */

const scanner = new SecretScanner(builtinRules);

/** Each rule's first match sample, in the line its samples test renders it in (`KEY=value`). */
const PLANTED = builtinRules
  .filter((rule) => rule.samples.match.length > 0 && !rule.samples.contexts)
  .map((rule) => `${rule.samples.key ?? 'value'}=${rule.samples.match[0]}`);
const KEYWORDS = [...new Set(builtinRules.flatMap((rule) => rule.keywords))];

const filler = fc.constantFrom(
  ' ',
  '\n',
  '\r\n',
  'const a = b.c(d) || e;',
  'x|y',
  '12345678901234567|',
  'host:5432:db:user:',
  ' # allow-secret ',
  '"api_key": "',
  'password = ',
  '```',
  '.'.repeat(1100),
  'ab1.'.repeat(300),
  '-----BEGIN ',
  '\t',
);
/** Characters that are one byte in Latin-1 and two or more in UTF-8, or a surrogate pair in UTF-16. */
const wide = fc.constantFrom('é', 'ü', '€', 'ß', '😀', 'Ω', '\u00a0', '\u2028', '\u3000', '𝒜');
/** A keyword or planted secret with wide characters right against it, or a run of them. */
const wideAround = fc.oneof(
  fc.tuple(wide, fc.constantFrom(...KEYWORDS, ...PLANTED), wide).map((parts) => parts.join('')),
  fc.tuple(wide, fc.integer({ min: 1, max: 600 })).map(([char, count]) => char.repeat(count)),
  wide,
);

function fragments(extra: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { arbitrary: fc.constantFrom(...PLANTED), weight: 2 },
    { arbitrary: fc.constantFrom(...KEYWORDS), weight: 3 },
    { arbitrary: filler, weight: 4 },
    { arbitrary: fc.string({ maxLength: 12 }), weight: 2 },
    { arbitrary: extra, weight: 1 },
  );
  return fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
}

const PATHS = ['src/app.ts', 'config/.env', 'docs/guide.md', '.pgpass', 'bin/tool', 'deploy/secret.yaml', 'a.js.map'];

type Encoding = 'ascii' | 'utf8' | 'latin1' | 'utf16le';

function encode(text: string, encoding: Encoding): Buffer {
  if (encoding === 'ascii') return Buffer.from(text.replace(/[^\x00-\x7f]/g, '?'), 'latin1');
  if (encoding === 'utf16le') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  return Buffer.from(text, encoding);
}

/** What a reader of the report sees of each finding and rejected candidate (masked, never the value). */
function seen(outcome: ScanOutcome) {
  return {
    findings: outcome.findings.map(({ ruleId, line, column, fingerprint, masked }) => ({
      ruleId,
      line,
      column,
      fingerprint,
      masked,
    })),
    rejected: outcome.rejected ?? [],
    skipped: outcome.skipped,
    binaryRuns: outcome.binaryRuns,
  };
}

function scanned(path: string, content: Buffer | string): ScanOutcome {
  const outcome = emptyScanOutcome();
  const target = { path, read: async () => content };
  scanContent(target, content, { scanner, reportRejected: true }, outcome);
  return outcome;
}

describe('byte path and string path', () => {
  test.each<Encoding>(['ascii', 'utf8', 'latin1', 'utf16le'])(
    'give the same findings on random %s files',
    (encoding) => {
      fc.assert(
        fc.property(fragments(wide), fc.constantFrom(...PATHS), (text, path) => {
          const bytes = encode(text, encoding);
          const decoded = decodeText(bytes);
          if (decoded === null) return;
          expect(seen(scanned(path, bytes))).toEqual(seen(scanned(path, decoded.text)));
        }),
        { numRuns: 60 },
      );
    },
  );

  test('scanUtf8 equals scanText over the decoded text, places included', () => {
    fc.assert(
      fc.property(fragments(wideAround), fc.constantFrom(...PATHS), fc.boolean(), (text, path, keepRejected) => {
        const bytes = Buffer.from(text, 'utf8');
        if (!isMultiByteUtf8(bytes)) return;
        const options = { path, keepAllowed: true, ...(keepRejected ? { keepRejected: true } : {}) };
        const place = (items: ReturnType<SecretScanner['scanText']>) =>
          items.map(({ rule, line, column, start, end, rejected }) => ({
            id: rule.id,
            line,
            column,
            start,
            end,
            rejected,
          }));
        expect(place(scanner.scanUtf8(bytes, options))).toEqual(place(scanner.scanText(text, options)));
      }),
      { numRuns: 120 },
    );
  });

  test('only UTF-8 beyond ASCII without a byte order mark takes the byte path', () => {
    expect(isMultiByteUtf8(Buffer.from('token = "é"', 'utf8'))).toBe(true);
    expect(isMultiByteUtf8(Buffer.from('token = "e"', 'utf8'))).toBe(false);
    expect(isMultiByteUtf8(Buffer.from('token = "é"', 'latin1'))).toBe(false);
    expect(isMultiByteUtf8(Buffer.from('\ufefftoken = "é"', 'utf8'))).toBe(false);
    expect(isMultiByteUtf8(encode('token = "é€"', 'utf16le'))).toBe(false);
    expect(isMultiByteUtf8(Buffer.from('token = "é€"', 'utf16le'))).toBe(false);
  });

  test('a planted secret is found by the byte path next to wide characters and across long lines', () => {
    const planted = PLANTED.find((line) => line.startsWith('value=ghp_')) ?? PLANTED[0]!;
    const text = `é${'.'.repeat(3000)}\n€ ${planted} ü\n${'x|y '.repeat(400)}${planted}`;
    for (const encoding of ['latin1', 'utf8'] as const) {
      const bytes = Buffer.from(text.replace('€', encoding === 'latin1' ? 'ß' : '€'), encoding);
      const outcome = scanned('src/app.ts', bytes);
      expect(outcome.findings.length).toBeGreaterThanOrEqual(2);
      expect(seen(outcome)).toEqual(seen(scanned('src/app.ts', decodeText(bytes)!.text)));
    }
  });
});
