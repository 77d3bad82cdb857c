import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken } from './sample-tokens.js';
import { scanTargets } from './scan-targets.js';
import { SecretScanner } from './scanner.js';
import { decodeText } from './text-decoding.js';

const token = fakeChecksumToken('ghp_', 'encodings');
const scanner = new SecretScanner(builtinRules);

function encode(text: string, encoding: 'utf-16le' | 'utf-16be' | 'latin1', bom: boolean): Buffer {
  if (encoding === 'latin1') return Buffer.from(text, 'latin1');
  const le = Buffer.from(text, 'utf16le');
  const bytes = encoding === 'utf-16le' ? le : Buffer.from(le).swap16();
  const mark = encoding === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff];
  return bom ? Buffer.concat([Buffer.from(mark), bytes]) : bytes;
}

async function findings(bytes: Buffer) {
  const outcome = await scanTargets([{ path: 'settings.txt', read: async () => bytes }], { scanner });
  return { outcome, places: outcome.findings.map((f) => `${f.line}:${f.column} ${f.ruleId}`) };
}

describe('text in other encodings', () => {
  test.each([
    ['utf-16le', true],
    ['utf-16le', false],
    ['utf-16be', true],
    ['utf-16be', false],
    ['latin1', false],
  ] as const)('%s (BOM: %s) is decoded and scanned, at the same line and column', async (encoding, bom) => {
    const text = `# Paramètres: café\r\nname = "svc"\r\ntoken = "${token}"\r\n`;
    const { places, outcome } = await findings(encode(text, encoding, bom));
    expect(places).toEqual(['3:10 github-pat']);
    expect(outcome.skipped).toEqual([]);
  });

  test('real binary content stays skipped as binary', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    for (const bytes of [png, random]) {
      const { outcome } = await findings(bytes);
      expect(outcome.skipped).toMatchObject([{ reason: 'binary' }]);
    }
    expect(decodeText(Buffer.from('plain ascii'))).toEqual({ text: 'plain ascii', encoding: 'utf-8' });
  });

  test('any ASCII text with a secret, in UTF-16 LE/BE with or without BOM or Latin-1, is found at the same line (property)', async () => {
    const line = fc.stringMatching(/^[A-Za-z0-9 =:#.,_-]{0,60}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 8 }),
        fc.array(line, { maxLength: 8 }),
        fc.constantFrom('utf-16le', 'utf-16be', 'latin1') as fc.Arbitrary<'utf-16le' | 'utf-16be' | 'latin1'>,
        fc.boolean(),
        async (before, after, encoding, bom) => {
          const text = [...before, `key: ${token}`, ...after].join('\n');
          const expected = (await findings(Buffer.from(text, 'utf8'))).places;
          const { places } = await findings(encode(text, encoding, bom));
          expect(places).toEqual(expected);
          expect(places).toContain(`${before.length + 1}:6 github-pat`);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the UTF-8 fast path', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const reference = (bytes: Uint8Array): string | null => {
    try {
      return fatal.decode(bytes);
    } catch {
      return null;
    }
  };

  test('gives the string a fatal TextDecoder gives, for any text and any bytes (property)', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.boolean(), (text, withBom) => {
        const bytes = Buffer.from(text, 'utf8');
        const input = withBom ? Buffer.concat([bom, bytes]) : bytes;
        if (input.includes(0)) return;
        const decoded = decodeText(input);
        if (decoded?.encoding === 'utf-8') expect(decoded.text).toBe(reference(input));
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ min: 1, maxLength: 64 }), (bytes) => {
        const decoded = decodeText(bytes);
        const expected = reference(bytes);
        if (decoded?.encoding === 'utf-8') expect(decoded.text).toBe(expected);
        else if (expected !== null && decoded !== null) expect(decoded.encoding).toMatch(/^utf-16/);
      }),
    );
  });
});
