import { describe, expect, test } from 'vitest';
import { builtinRules } from '../../secrets/rules/index.js';
import { fakeJwt, fakePem, fakeToken } from '../../secrets/sample-tokens.js';
import { createScannerRedactor, type Redact, redactBaseline } from './redaction.js';

/**
 * Canary tokens through the redactor every review-thread output uses. The redactor is built on the secret
 * scanner's rules; point `redactors` at any other implementation to hold it to the same canaries.
 */
const canaries = {
  'GitHub token': fakeToken('ghp_', 36),
  'AWS key id': `AKIA${'QWERTYUIOPASDFGH'}`,
  JWT: fakeJwt(),
  'private key': fakePem('RSA PRIVATE KEY'),
  'authorization header': `Authorization: Bearer ${fakeToken('', 40)}`,
};
const redactors: Record<string, Redact> = { scanner: createScannerRedactor() };

describe.each(Object.entries(redactors))('the %s redactor', (_name, redact) => {
  test.each(Object.entries(canaries))('removes a %s from a comment body', (_kind, secret) => {
    const body = `Please rotate this:\n${secret}\nthanks. tollgate:allow`;
    const out = redact(body);
    const core = secret
      .replace(/^Authorization: Bearer /, '')
      .split('\n')
      .find((line) => line.length > 20 && !line.startsWith('-----'))!;
    expect(out).not.toContain(core);
    expect(out).toContain('Please rotate this:');
    // Rule matches become markers; header values the rules do not key on are hidden as `***`.
    expect(out).toMatch(/\[REDACTED:[a-z0-9-]+\]|\*\*\*/);
  });

  const ruleSamples = builtinRules
    .filter((rule) => rule.onlyPaths === undefined && rule.samples.match.length > 0)
    .map((rule) => {
      const sample = rule.samples.match[0]!;
      const own = rule.samples.contexts?.[0];
      return { id: rule.id, sample, quoted: own ? own.render(sample) : `${rule.samples.key ?? 'value'}=${sample}` };
    });
  test.each(ruleSamples)('removes the $id sample of the scanner pack, quoted in a comment', ({ sample, quoted }) => {
    const out = redact(`Found this in the diff:\n\n\`\`\`\n${quoted}\n\`\`\`\n`);
    for (const line of sample.split('\n').filter((part) => part.length >= 12 && !part.startsWith('-----'))) {
      expect(out).not.toContain(line);
    }
  });

  test.each(Object.entries(canaries))(
    'removes a %s every time it appears, in one body and in the next',
    (_k, secret) => {
      const core = secret
        .replace(/^Authorization: Bearer /, '')
        .split('\n')
        .find((line) => line.length > 20 && !line.startsWith('-----'))!;
      // Quoted, in a code block, in a URL (where the value can be one) and again: every place a reply repeats it.
      const inUrl = /^[\w.~-]+$/.test(core) ? `https://x:${core}@example.com ` : '';
      const body = `First: ${secret}\n\n> ${secret}\n\n\`\`\`\n${secret}\n\`\`\`\n${inUrl}${secret}`;
      for (const out of [redact(body), redact(body), redact(`again ${secret}`)]) expect(out).not.toContain(core);
    },
  );

  test('leaves ordinary review text alone', () => {
    const text = 'Use `Array.prototype.at(-1)` here; see src/index.ts:42.';
    expect(redact(text)).toBe(text);
  });
});

test('the baseline catches what prose hides from rule keywords', () => {
  expect(redactBaseline('authorization: token abcdefgh12345678')).toBe(
    'authorization: token [REDACTED:authorization-header]',
  );
});
