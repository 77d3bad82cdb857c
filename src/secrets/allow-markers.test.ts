import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { allowMarkerAbove, allowMarkerOn } from './allow-markers.js';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

const token = fakeChecksumToken('ghp_', 'allow-markers');
const scanner = new SecretScanner(builtinRules);
const scan = (text: string, path = 'a.py') =>
  scanner.scanText(text, { path, keepAllowed: true }).map(({ line, allowedBy, allowedAt, allowReason }) => ({
    line,
    allowedBy,
    allowedAt,
    allowReason,
  }));

describe('inline allow markers', () => {
  test.each([
    [`TOKEN = "${token}"  # tollgate:allow`, 'tollgate:allow', undefined],
    [`TOKEN = "${token}"  # tollgate:allow test fixture, revoked`, 'tollgate:allow', 'test fixture, revoked'],
    [`const t = "${token}"; /* tollgate:allow: docs example */ f();`, 'tollgate:allow', 'docs example'],
    [`TOKEN = "${token}"  # gitleaks:allow`, 'gitleaks:allow', undefined],
    [`TOKEN = "${token}"  # pragma: allowlist secret`, 'pragma: allowlist secret', undefined],
  ])('on the secret’s line: %s', (line, marker, reason) => {
    expect(scan(`${line}\n`)).toEqual([{ line: 1, allowedBy: marker, allowedAt: 1, allowReason: reason }]);
  });

  test.each([
    ['# tollgate:allow fixture for the parser tests', 'tollgate:allow', 'fixture for the parser tests'],
    ['    // tollgate:allow', 'tollgate:allow', undefined],
    ['<!-- tollgate:allow sample page -->', 'tollgate:allow', 'sample page'],
    ['# pragma: allowlist nextline secret', 'pragma: allowlist nextline secret', undefined],
  ])('on a comment line above: %s', (above, marker, reason) => {
    expect(scan(`x = 1\n${above}\nTOKEN = "${token}"\n`)).toEqual([
      { line: 3, allowedBy: marker, allowedAt: 2, allowReason: reason },
    ]);
  });

  test.each([
    ['code above that mentions it', 'call("tollgate:allow")'],
    ['gitleaks:allow above (gitleaks reads its own line only)', '# gitleaks:allow'],
    ['a marker that is part of a longer word', '# tollgate:allowed-list'],
    ['a next-line pragma two lines up', '# pragma: allowlist nextline secret\nx = 1'],
  ])('no allow for %s', (_, above) => {
    const lines = scan(`${above}\nTOKEN = "${token}"\n`);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.allowedBy).toBeUndefined();
  });

  test('the next-line pragma does not allow its own line', () => {
    expect(allowMarkerOn(`x = "${token}"  # pragma: allowlist nextline secret`)).toBeNull();
  });

  test('a reason reads back as written, trimmed and capped', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }).filter((text) => !/\*\/|-->|[\r\n]/.test(text)),
        (text) => {
          const found = allowMarkerAbove(`# tollgate:allow ${text}`)!;
          const expected = text
            .replace(/^[\s:,-]+/, '')
            .trim()
            .slice(0, 200);
          expect(found.reason).toBe(expected.length > 0 ? expected : undefined);
        },
      ),
    );
  });
});
