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

describe('binary is not a hiding place', () => {
  test('one NUL byte: the secret in a printable run is found on its line (ASCII and UTF-16 runs)', async () => {
    const ascii = Buffer.concat([Buffer.from('header\n\0\x01\x02\nline three\n'), Buffer.from(`key: ${token}\n`)]);
    expect((await findings(ascii)).places).toEqual(['4:6 github-pat']);
    const noise = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7919 + 13) % 256));
    const wide = Buffer.concat([noise, Buffer.from(`token=${token}`, 'utf16le'), noise]);
    expect(decodeText(wide)).toBeNull();
    const newlinesBefore = noise.filter((byte) => byte === 0x0a).length;
    expect((await findings(wide)).places.map((place) => place.split(':')[0])).toEqual([`${newlinesBefore + 1}`]);
  });

  test.each([
    ['ELF executable', [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]],
    ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0]],
    ['PE executable', [0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0]],
  ])(
    'compiled code (%s): its glued strings give no name=value finding, a provider token in them still is one',
    async (_, magic) => {
      // A symbol table: one name's text runs into the next, so `…Key=` reads as the key of the next string.
      const strings = 'RuleSecretKey=positional7Hq2mZ9xTbV4kLw8\0';
      const bytes = Buffer.concat([Buffer.from(magic), Buffer.from(strings), Buffer.from(`\0token=${token}\0`)]);
      expect((await findings(bytes)).places.map((place) => place.split(' ')[1])).toEqual(['github-pat']);
      // The same strings behind one NUL byte in a file that is no compiled code still report the assignment.
      const plain = Buffer.concat([Buffer.from([0]), Buffer.from(strings)]);
      expect((await findings(plain)).places.map((place) => place.split(' ')[1])).toEqual(['generic-secret']);
    },
  );

  test.each([
    ['utf-32le', true],
    ['utf-32le', false],
    ['utf-32be', true],
    ['utf-32be', false],
  ] as const)('UTF-32 text (%s, BOM %s) is decoded as text', async (encoding, bom) => {
    const text = `first line\nkey: ${token}\n`;
    const units = [...(bom ? [0xfeff] : []), ...[...text].map((char) => char.codePointAt(0)!)];
    const bytes = Buffer.alloc(units.length * 4);
    units.forEach((unit, i) => {
      if (encoding === 'utf-32le') bytes.writeUInt32LE(unit, i * 4);
      else bytes.writeUInt32BE(unit, i * 4);
    });
    expect(decodeText(bytes)).toEqual({ text, encoding });
    const { places, outcome } = await findings(bytes);
    expect(places).toEqual(['2:6 github-pat']);
    expect(outcome.binaryRuns).toEqual([]);
  });
});

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

  test('real binary content is scanned for its printable runs only, and listed so', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
    for (const bytes of [png, random]) {
      const { outcome, places } = await findings(bytes);
      expect(outcome.skipped).toEqual([]);
      expect(outcome.binaryRuns).toEqual(['settings.txt']);
      expect(places).toEqual([]);
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
