import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { propertyRuns } from '../../test/support/property-runs.js';
import { loadRedactor } from '../core/pipeline/redact-result.js';
import { resetKnownValues } from './known-values.js';
import { maskUrlCredentials, redactSecrets, type SecretTextScanner, sharedSecretScanner } from './redact.js';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken, fakeToken } from './sample-tokens.js';

/**
 * Output masking skips the scan when the prefilter finds no keyword in the text. These pin that the skip changes no
 * byte of what leaves: the masked text is the one the full scan gives, for texts full of real-looking secrets.
 */
afterEach(() => resetKnownValues());

const scanner = sharedSecretScanner();
/** The same scanner without `mayFind`: masking then scans every text, as it did before the skip. */
const alwaysScans: SecretTextScanner = { scanText: (text, options) => scanner.scanText(text, options) };

/** Every rule's match samples, with the name some of them need beside them. */
const secrets = builtinRules.flatMap((rule) =>
  rule.samples.match.map((value) => ({ value, key: rule.samples.key ?? 'value' })),
);

const fragment = fc.oneof(
  fc.constantFrom(...secrets).map(({ value }) => value),
  fc.constantFrom(...secrets).map(({ value, key }) => `${key}=${value}`),
  fc.constantFrom(...secrets).map(({ value, key }) => `"${key}": "${value}"`),
  fc.constantFrom(...secrets).map(({ value }) => `src/config/${value}/settings.ts`),
  fc.constantFrom(
    'src/lib/file-name.ts',
    'checks: npm test',
    ' \u001b[31m',
    '\u001b[0m',
    '\r',
    '\n',
    ' ',
    '/',
    'tollgate:allow',
    'https://user:',
    '@example.com',
    'Authorization: Bearer ',
    'password = ',
    'api_key: ',
    'AKIA',
    'ghp_',
  ),
  fc.string({ maxLength: 24 }),
  fc.stringMatching(/^[A-Za-z0-9+/_-]{16,48}$/),
);
const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(''));
const path = fc.constantFrom('output.log', 'config-show.yaml', 'config-show.json', 'review-prompt.md', 'a.ts');

describe('output masking with the keyword pre-check', () => {
  test('masks every text exactly as the full scan does', () => {
    let masked = 0;
    fc.assert(
      fc.property(text, path, (input, at) => {
        resetKnownValues();
        const full = redactSecrets(input, { scanner: alwaysScans, path: at });
        resetKnownValues();
        expect(redactSecrets(input, { path: at })).toBe(full);
        if (full !== input) masked++;
      }),
      { numRuns: propertyRuns(300, 3000) },
    );
    // The inputs did hold secrets: the property compared masked output, not only untouched text.
    expect(masked).toBeGreaterThan(30);
  });

  test('the pre-check says "nothing" only where the scan finds nothing', () => {
    fc.assert(
      fc.property(text, path, (input, at) => {
        if (!scanner.mayFind(input, at)) expect(scanner.scanText(input, { path: at })).toEqual([]);
      }),
      { numRuns: propertyRuns(300, 3000) },
    );
  });

  test('URL credentials are masked as both patterns alone mask them, `://` or not', () => {
    const urlish = fc.array(
      fc.oneof(fragment, fc.constantFrom('://', 'https://', 'git+ssh://', ':', '@', 'user', 'x:y@', 'a.b-c+d')),
      { maxLength: 10 },
    );
    const bothPatterns = (input: string) =>
      input
        .replace(
          /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/:@'"]*):([^\s/@'"]+)@/gi,
          (_m, scheme, user) => `${scheme}${user}:***@`,
        )
        .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([A-Za-z0-9_\-.]{20,})@/gi, (_m, scheme) => `${scheme}***@`);
    let changed = 0;
    fc.assert(
      fc.property(urlish, (parts) => {
        const input = parts.join('');
        const expected = bothPatterns(input);
        expect(maskUrlCredentials(input)).toBe(expected);
        if (expected !== input) changed++;
      }),
      { numRuns: propertyRuns(300, 3000) },
    );
    expect(changed).toBeGreaterThan(0);
  });

  test('plain paths and progress lines take the skip; no rule sample the scan finds does', () => {
    for (const plain of ['src/lib/module-7/file-name-12.ts', 'checks: npm test (3 of 12)', 'test/cli/canary.test.ts']) {
      expect(scanner.mayFind(plain, 'output.log')).toBe(false);
    }
    let found = 0;
    for (const { value, key } of secrets) {
      for (const sample of [`${key}=${value}`, `"${key}": "${value}"`, `src/${value}/x.ts`]) {
        if (scanner.scanText(sample, { path: 'output.log' }).length === 0) continue;
        found++;
        expect(scanner.mayFind(sample, 'output.log')).toBe(true);
      }
    }
    expect(found).toBeGreaterThan(secrets.length);
  });

  test('a secret inside a file path and inside a progress line is still masked', () => {
    const token = fakeChecksumToken('ghp_', 'redact-fast-path');
    const maskedPath = redactSecrets(`src/fixtures/${token}/config.ts`);
    expect(maskedPath).not.toContain(token.slice(4));
    expect(maskedPath.startsWith('src/fixtures/ghp_')).toBe(true);
    const key = `AKIA${fakeToken('', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 'redact-fast-path')}`;
    const line = redactSecrets(`checks: npm test › uploading with ${key} to the bucket`);
    expect(line).not.toContain(key.slice(4));
    expect(line.startsWith('checks: npm test › uploading with ')).toBe(true);
  });

  test('the masker the pipeline uses for progress lines and report paths still masks them', async () => {
    const redact = await loadRedactor();
    const token = fakeChecksumToken('ghp_', 'redact-fast-path-pipeline');
    expect(redact(`src/${token}.ts`)).not.toContain(token.slice(4));
    expect(redact(`checks: running \`deploy --token ${token}\``)).not.toContain(token.slice(4));
    expect(redact('src/lib/file-name-12.ts')).toBe('src/lib/file-name-12.ts');
  });
});
