import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken } from './sample-tokens.js';
import { type RawSecret, SecretScanner } from './scanner.js';

/**
 * A text scanned in pieces (a large file streamed from disk) gives exactly what the whole text gives: same rules,
 * same places, same allow markers. Texts here are a few hundred KB so that the stream really drops what it has
 * passed (it keeps 64 KB ahead and 4 KB behind).
 */
const scanner = new SecretScanner(builtinRules);
const samples = builtinRules.flatMap((rule) => rule.samples.match.filter((sample) => /^[\x20-\x7e\n]*$/.test(sample)));
const token = fakeChecksumToken('ghp_', 'stream-scan');

const summary = (found: readonly RawSecret[]) =>
  found.map((item) =>
    [
      item.rule.id,
      item.line,
      item.column,
      item.start,
      item.end,
      item.secret,
      item.allowedBy ?? '',
      item.allowedAt ?? 0,
    ].join(' '),
  );

function streamed(text: string, cuts: readonly number[], path: string) {
  const stream = scanner.startStream({ path, keepAllowed: true });
  if (!stream) throw new Error('not streamable');
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    stream.push(text.slice(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  stream.push(text.slice(from));
  return summary(stream.end());
}

const filler = fc.constantFrom(
  'const value = compute(input, 42);',
  '  return items.map((item) => item.id);',
  '// token handling below, see the docs',
  'export function parseKey(key) { return key; }',
  '',
  'password = process.env.DB_PASSWORD',
);
const secretLine = fc.oneof(
  fc.constantFrom(...samples).map((sample) => `const secret = "${sample}";`),
  fc.constantFrom(...samples).map((sample) => `${sample} // tollgate:allow test fixture`),
  fc.constant(`token = "${token}"`),
  fc.constant(`// tollgate:allow fixture\nGITHUB_TOKEN=${token}`),
);
const longLine = fc
  .tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom(...samples))
  .map(
    ([repeat, sample]) =>
      `${'var a=1,token="x",b=2;'.repeat(repeat * 10)}key="${sample}";${'c=3;'.repeat(repeat * 50)}`,
  );
const block = fc
  .integer({ min: 1, max: 4000 })
  .map((lines) => Array.from({ length: lines }, (_, i) => `line ${i} of padding text`).join('\n'));

describe('streamed scans', () => {
  test('a text cut anywhere gives the findings of the whole text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 4, arbitrary: filler }, { weight: 2, arbitrary: secretLine }, longLine, block), {
          minLength: 20,
          maxLength: 120,
        }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom('src/app.ts', 'config/settings.env', 'data/dump.json', 'notes.txt'),
        (lines, cuts, path) => {
          const text = lines.join('\n');
          const whole = summary(scanner.scanText(text, { path, keepAllowed: true }));
          expect(
            streamed(
              text,
              cuts.map((cut) => cut % (text.length + 1)),
              path,
            ),
          ).toEqual(whole);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a secret straddling a piece boundary is found exactly once, at its line', () => {
    const padding = `${'x = 1\n'.repeat(30_000)}`;
    const text = `${padding}token = "${token}"\n${padding}`;
    const at = text.indexOf(token) + 10;
    for (const cut of [at, at - 10, at + 20, padding.length, 70_000, 140_000]) {
      const found = streamed(text, [cut], 'src/app.ts');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^github-pat 30001 10 /);
    }
  });

  test('YAML (a Kubernetes Secret is read as a document) is not streamed', () => {
    expect(scanner.startStream({ path: 'deploy/secret.yaml' })).toBeNull();
    expect(scanner.startStream({ path: 'src/app.ts' })).not.toBeNull();
    expect(scanner.canStream('deploy/secret.yaml')).toBe(false);
    expect(scanner.canStream('src/app.ts')).toBe(true);
  });
});
