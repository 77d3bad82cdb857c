import { describe, expect, test } from 'vitest';
import { goRegex, importGitleaksConfig } from './gitleaks-config.js';
import { fakeToken } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

const CONFIG = `
title = "acme gitleaks config"

[extend]
useDefault = true

[[rules]]
id = "acme-api-key"
description = "Acme API key"
regex = '''(?i)\\bacme_(?P<key>[a-z0-9]{32})\\b'''
secretGroup = 1
entropy = 3.0
keywords = ["acme_"]

  [[rules.allowlists]]
  regexes = ['''acme_0{32}''']
  stopwords = ["EXAMPLE"]

[[rules]]
id = "path-only"
path = '''\\.pem$'''

[[rules]]
id = "bad-regex"
regex = "(unclosed"

[allowlist]
description = "global"
paths = ['''(^|/)fixtures/''']
regexes = ["placeholder"]
`;

describe('gitleaks config import', () => {
  const imported = importGitleaksConfig(CONFIG, '.gitleaks.toml');

  test('imports rules with their keywords, entropy, secret group and allowlists', () => {
    expect(imported.rules.map((rule) => rule.id)).toEqual(['gitleaks-acme-api-key']);
    const [rule] = imported.rules;
    expect(rule!.keywords).toEqual(['acme_']);
    expect(rule!.entropy).toBe(3);
    expect(rule!.secretGroup).toBe(1);
    expect(rule!.pattern.flags).toContain('i');
    expect(rule!.allowlist?.stopwords).toEqual(['example']);
  });

  test('notes what it could not import, naming the rule', () => {
    expect(imported.notes).toEqual([
      '.gitleaks.toml rules[1] (path-only): no regex (path-only rules are not imported)',
      expect.stringMatching(/^\.gitleaks\.toml rules\[2\] \(bad-regex\): regex not importable: /),
    ]);
  });

  test('the imported rule finds its format through the real scanner; allowlists hold', () => {
    const scanner = new SecretScanner(imported.rules, imported.allowlist);
    const key = fakeToken('', 32, 'abcdefghijklmnopqrstuvwxyz0123456789');
    const found = scanner.scanText(`ACME=acme_${key}\nX=acme_${'0'.repeat(32)}\n`, { path: 'app.env' });
    expect(found.map((item) => [item.rule.id, item.secret, item.line])).toEqual([['gitleaks-acme-api-key', key, 1]]);
    expect(scanner.scanText(`ACME=acme_${key}\n`, { path: 'test/fixtures/app.env' })).toEqual([]);
  });

  test.each([
    ['(?i)abc', 'abc', 'i'],
    ['(?P<x>a)', '(?<x>a)', ''],
    ['[[:alnum:]]+\\z', '[A-Za-z0-9]+$', ''],
  ])('translates Go regex %j', (source, expected, flags) => {
    const result = goRegex(source);
    expect(result.ok && result.regex.source).toBe(expected);
    expect(result.ok && result.regex.flags).toBe(flags);
  });

  test('a TOML syntax error names the file and line', () => {
    expect(() => importGitleaksConfig('[[rules]]\nid = \n', 'x.toml')).toThrow('x.toml:2:6: invalid value');
  });
});

describe('gitleaks rules that could backtrack without bound', () => {
  test('are rejected with a one-line config error naming the file and the rule id', () => {
    const config = `[[rules]]\nid = "fine"\nregex = '''acme_[a-z0-9]{32}'''\n\n[[rules]]\nid = "slow-one"\nregex = '''(?i)key=(\\w+\\s?)*;'''\n`;
    expect(() => importGitleaksConfig(config, 'ci/gitleaks.toml')).toThrow(
      /^ci\/gitleaks\.toml rules\[1\] \(slow-one\): regex may take super-linear time \(nested quantifiers in \(\\w\+\\s\?\)\*\)/,
    );
    try {
      importGitleaksConfig(config, 'ci/gitleaks.toml');
    } catch (error) {
      expect((error as { code?: string }).code).toBe('config');
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
