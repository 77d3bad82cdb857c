import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { propertyRuns } from '../../test/support/property-runs.js';
import { byPathLineColumn } from '../core/text-order.js';
import { sharedSecretScanner } from './redact.js';
import { builtinRules } from './rules/index.js';
import {
  emptyScanOutcome,
  mergeScanOutcome,
  type ScanOutcome,
  type ScanTarget,
  scanContent,
  scanTargets,
} from './scan-targets.js';

/**
 * A history's short texts are first looked at with the keyword pass alone (`quietTexts`), and those without a hit are
 * not scanned. These pin that such a text is one the scan finds nothing in, and that a scan of targets reports exactly
 * what scanning each alone reports.
 */

const scanner = sharedSecretScanner();

/** Every rule's match samples, with the name some of them need beside them, and every keyword. */
const secrets = builtinRules.flatMap((rule) =>
  rule.samples.match.map((value) => ({ value, key: rule.samples.key ?? 'value' })),
);
const keywords = [...new Set(builtinRules.flatMap((rule) => rule.keywords ?? []))];

/** Pieces of a line: secrets in their contexts, bare keywords (a hit at a text's edge), and what gates look at. */
const fragment = fc.oneof(
  fc.constantFrom(...secrets).map(({ value }) => value),
  fc.constantFrom(...secrets).map(({ value, key }) => `${key}=${value}`),
  fc.constantFrom(...secrets).map(({ value, key }) => `${key}: "${value}"`),
  fc.constantFrom(...keywords),
  fc.constantFrom(' ', '\t', '.', '|', ':', '=', '"', 'abc', 'x.y', 'host:5432:db:user:', '# tollgate:allow', '{'),
  fc.stringMatching(/^[A-Za-z0-9+/_.|:-]{1,40}$/),
  // A Kubernetes Secret's values are decoded and scanned, whatever keyword their base64 holds.
  fc.constantFrom('kind: Secret', 'data:', '  value: '),
  fc.constantFrom(...secrets).map(({ value }) => `  value: ${Buffer.from(value).toString('base64')}`),
);
/** A text of a few lines (a secret may sit on the first or the last), never ending in a line feed, as a piece. */
const text = fc
  .array(
    fc.array(fragment, { maxLength: 4 }).map((parts) => parts.join('')),
    { minLength: 1, maxLength: 5 },
  )
  .map((lines) => lines.join('\n'));
/** Paths met before, and new ones. */
const path = fc.oneof(
  fc.constantFrom(
    'src/app.rb',
    'config/settings.py',
    '.pgpass',
    '.netrc',
    'k8s/secret.yaml',
    'README.md',
    'bundle.js.map',
    'commit 0123456789abcdef0123456789abcdef01234567 message',
  ),
  fc
    .tuple(
      fc.stringMatching(/^[a-z0-9]{1,10}$/),
      fc.constantFrom('/.pgpass', '/.netrc', '.yaml', '/settings.py', '.rb', ''),
    )
    .map(([name, end]) => `fresh/${name}${end}`),
);
const texts = fc.array(fc.tuple(text, path), { minLength: 1, maxLength: 12 });

describe('quietTexts', () => {
  test('a text without a keyword hit is quiet, one with a hit is not, and each is judged on its own', () => {
    expect([...scanner.quietTexts(['nothing here', 'token = 1', 'x'], ['a.rb', 'a.rb', 'a.rb'])]).toEqual([1, 0, 1]);
    // `.pgpass`'s `:` is a keyword only where its rule is not exempt.
    expect([...scanner.quietTexts(['a:b', 'a:b'], ['src/app.rb', '.pgpass'])]).toEqual([1, 0]);
    // So also on paths not met before.
    expect([...scanner.quietTexts(['a:b', 'a:b', 'a b'], ['new/a.rb', 'new/.pgpass', 'new/b.rb'])]).toEqual([1, 0, 1]);
  });

  test('a quiet text is one the scan finds nothing in, nor opens a window in', () => {
    fc.assert(
      fc.property(texts, (pairs) => {
        const quiet = scanner.quietTexts(
          pairs.map(([value]) => value),
          pairs.map(([, at]) => at),
        );
        pairs.forEach(([value, at], index) => {
          expect(quiet[index]).toBe(scanner.quietTexts([value], [at])[0]);
          if (quiet[index] !== 1) return;
          expect(scanner.scanText(value, { path: at, keepAllowed: true, keepRejected: true })).toEqual([]);
          expect(scanner.mayFind(value, at)).toBe(false);
        });
      }),
      { numRuns: propertyRuns(300, 3000) },
    );
  });
});

/** A history's piece: its lines mapped past a hunk start, only its middle lines owned (the rest overlap). */
function piece(value: string, at: string, index: number, overlap = true): ScanTarget {
  const lines = value.split('\n').length;
  const lineMap = Array.from({ length: lines }, (_, line) => 10 * index + line + 3);
  const own = { start: lineMap[overlap && lines > 2 ? 1 : 0]!, end: lineMap[lines - 1]! };
  return { path: at, commit: `c${index}`, lineMap, onlyLines: [own], content: value, read: async () => value };
}

/** The per-target path: each target's content scanned alone, the outcomes merged and sorted as `scanTargets` sorts. */
function eachAlone(targets: readonly ScanTarget[], reportRejected: boolean): ScanOutcome {
  const outcome = emptyScanOutcome();
  for (const target of targets) {
    const own = emptyScanOutcome();
    scanContent(target, target.content!, { scanner, reportRejected }, own);
    mergeScanOutcome(outcome, own);
  }
  outcome.findings.sort(byPathLineColumn);
  return outcome;
}

/** A commit message: its bytes, read as text; some start as a key store does, or hold a NUL or a UTF-16 BOM. */
function message(value: string, index: number, head: number): ScanTarget {
  const heads = [Buffer.alloc(0), Buffer.from([0xfe, 0xed, 0xfe, 0xed]), Buffer.from([0x30, 0x82]), Buffer.from([0])];
  const bytes =
    head === 4 ? Buffer.from(`\ufeff${value}`, 'utf16le') : Buffer.concat([heads[head]!, Buffer.from(value)]);
  const path = `commit ${index} message`;
  return { path, commit: `c${index}`, scanAsText: true, content: bytes, read: async () => bytes };
}

describe('scanTargets with texts at hand', () => {
  test('reports exactly what scanning each target alone reports', async () => {
    const kind = fc.oneof(fc.constant(-1), fc.constant(-1), fc.integer({ min: 0, max: 4 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, path, kind), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        async (list, reportRejected) => {
          const targets = list.map(([value, at, head], index) =>
            head === -1 ? piece(value, at, index) : message(value, index, head),
          );
          expect(await scanTargets(targets, { scanner, reportRejected })).toEqual(eachAlone(targets, reportRejected));
        },
      ),
      { numRuns: propertyRuns(200, 2000) },
    );
  });

  test('a short text with no keyword hit is counted without a scan of it; one with a hit is scanned', async () => {
    const scanText = vi.spyOn(scanner, 'scanText');
    try {
      const outcome = await scanTargets([piece('plain\nlines', 'a.rb', 0), piece('token = 1', 'a.rb', 1)], { scanner });
      expect(scanText.mock.calls.map(([text]) => text)).toEqual(['token = 1']);
      expect(outcome.scannedFiles).toBe(2);
      expect(outcome.scannedBytes).toBe('plain\nlines'.length + 'token = 1'.length);
    } finally {
      scanText.mockRestore();
    }
  });

  test("a secret on a piece's first or last line, beside pieces with no hit, is found", async () => {
    const token = secrets.find(({ value }) => value.startsWith('ghp_'))!.value;
    const targets = [
      piece('nothing\nhere', 'a.rb', 0, false),
      piece(`${token}\nplain\nplain`, 'a.rb', 1, false),
      piece('plain\nplain', 'a.rb', 2, false),
      piece(`plain\nplain\n${token}`, 'a.rb', 3, false),
    ];
    const outcome = await scanTargets(targets, { scanner });
    expect(outcome.findings.map((finding) => [finding.commit, finding.line])).toEqual([
      ['c1', 13],
      ['c3', 35],
    ]);
    expect(outcome.scannedFiles).toBe(4);
    expect(outcome).toEqual(eachAlone(targets, false));
  });
});
