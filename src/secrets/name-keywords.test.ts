import { describe, expect, test } from 'vitest';
import { providerNamedAssignment } from './rule-builders.js';
import { builtinRules } from './rules/index.js';
import { fakeToken, LOWER_ALPHANUMERIC } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

/**
 * Rules with `nameWords` are found through the words of the name (`key`, `token`) and their keywords looked up in the
 * name before them, not by their keywords in the prefilter: the findings must be those the keywords alone gave.
 */
const named = builtinRules.filter((rule) => rule.nameWords !== undefined);
const asBefore = new SecretScanner(builtinRules.map(({ nameWords: _, ...rule }) => rule));
const scanner = new SecretScanner(builtinRules);
const key = (value: string) => fakeToken('', 32, LOWER_ALPHANUMERIC, value);

describe('provider names found in the name before a secret word', () => {
  test('the provider-named rules use name words', () => {
    expect(named.length).toBeGreaterThan(300);
  });

  const acme = providerNamedAssignment({
    slug: 'acme',
    provider: 'Acme',
    aliases: ['acme', 'acmecorp'],
    shape: { charset: 'alnum', min: 32, max: 32 },
  });
  const acmeScanner = new SecretScanner([acme]);
  test.each([
    ['acme_api_key = "{v}"', true],
    ['ACME_TOKEN={v}', true],
    ['acmeApiKey: "{v}"', true],
    ['settings.acmecorp-secret: {v}', true],
    ['my_acme_auth_key := "{v}"', true],
    ['{ "ACME_PASS": "{v}" }', true],
    ['xacme_key = "{v}"', false],
    ['acme = "{v}"', false],
    ['key_acme = "{v}"', false],
  ])('%s → found: %s', (line, expected) => {
    const value = key(line);
    const text = `# config\n${line.replace('{v}', value)}\n`;
    expect(acmeScanner.scanText(text, { path: 'app.env' }).map((f) => f.secret)).toEqual(expected ? [value] : []);
  });

  test('every provider-named rule finds what its keywords alone found, also in a streamed text', () => {
    const lines = named.flatMap((rule, index) => {
      const alias = rule.keywords[0]!;
      const value = rule.samples.match[0]!;
      return [
        `${alias.toUpperCase()}_API_KEY=${value}`,
        `export const ${alias}Token = "${value}";`,
        `svc.${alias}-secret: ${value}`,
        `not${alias}_key = "${value}"`,
        `${'x'.repeat(index % 50)}_${alias}_${'y'.repeat(index % 40)}_auth: '${value}'`,
      ];
    });
    const text = `${lines.join('\n')}\n${'passkey'.repeat(2000)}_${named[0]!.keywords[0]}_token = ${named[0]!.samples.match[0]}\n`;
    const ids = (found: ReturnType<SecretScanner['scanText']>) =>
      found.map((f) => `${f.line}:${f.rule.id}:${f.secret}`).sort();
    const expected = ids(asBefore.scanText(text, { path: 'settings.env' }));
    expect(expected.length).toBeGreaterThan(named.length * 3);
    expect(ids(scanner.scanText(text, { path: 'settings.env' }))).toEqual(expected);
    const stream = scanner.startStream({ path: 'settings.env' })!;
    for (let at = 0; at < text.length; at += 7919) stream.push(text.slice(at, at + 7919));
    expect(ids(stream.end())).toEqual(expected);
  });
});
