import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { fakeHumanPassword, fakePem, fakeToken, URL_SAFE } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

/** Ways code and documents write a secret that a plain `name = "value"` reading misses, each with its decoys. */
const scanner = new SecretScanner(builtinRules);
const found = (text: string, path: string) =>
  scanner.scanText(text, { path }).map((item) => [item.rule.id, item.secret, item.line]);

describe('terminal colour codes', () => {
  const token = fakeToken('sq0csp-', 43, URL_SAFE, 'ansi-square');
  test('a token right after ESC[…m in a coloured log line is found', () => {
    expect(found(`12:00:01 \u001b[94m${token}\u001b[0m done\n`, 'build.log')).toEqual([
      ['square-oauth-secret', token, 1],
    ]);
  });
  test('the same letters inside a longer word are not', () => {
    expect(found(`12:00:01 m${token}\n`, 'build.log')).toEqual([]);
  });
});

describe('&quot;-quoted values (HTML, draw.io, exported XML)', () => {
  const password = fakeHumanPassword('entity-password');
  test('a password between &quot; entities is found, entities inside it decoded for judging', () => {
    expect(found(`<div title="password: &quot;${password}&quot;"></div>\n`, 'docs/setup.html')).toEqual([
      ['generic-password', password, 1],
    ]);
    const escaped = 'Dw7^&amp;nd&amp;lt;q2';
    expect(found(`<cell value="Password: &quot;${escaped}&quot;"/>\n`, 'diagram.drawio')).toEqual([
      ['generic-password', escaped, 1],
    ]);
  });
  test('placeholders and references between &quot; stay quiet', () => {
    expect(found('<div title="password: &quot;&lt;your password&gt;&quot;"></div>\n', 'a.html')).toEqual([]);
    expect(found(`<div title="password: &quot;\${DB_PASSWORD}&quot;"></div>\n`, 'a.html')).toEqual([]);
    expect(found('<div title="password: &quot;********&quot;"></div>\n', 'a.html')).toEqual([]);
  });
});

describe('fallbacks of environment lookups', () => {
  const password = fakeHumanPassword('env-default');
  test.each([
    ['app/settings.py', `DB_PASSWORD = os.environ.get("DB_PASSWORD") or "${password}"`],
    ['src/db.ts', `const dbPassword = process.env.DB_PASSWORD ?? '${password}';`],
    ['cmd/main.go', `if dbPass := getenv("DB_CONN", "${password}"); dbPass != "" {`],
  ])('%s: the literal fallback is found', (path, line) => {
    expect(found(`${line}\n`, path)).toEqual([['generic-password-env-default', password, 1]]);
  });
  test.each([
    ['app/settings.py', 'DB_PASSWORD = os.environ.get("DB_PASSWORD") or ""'],
    ['src/db.ts', "const dbPassword = process.env.DB_PASSWORD || 'changeme';"],
    ['src/db.ts', 'const dbPassword = process.env.DB_PASSWORD || getPassword();'],
    ['app/settings.py', 'DB_PASSWORD = os.environ.get("DB_PASSWORD") or "<password>"'],
    ['src/db.ts', "const dbPasswordType = process.env.DB_PASSWORD_TYPE || 'plain-text';"],
  ])('%s: %s is not a credential', (path, line) => {
    expect(found(`${line}\n`, path)).toEqual([]);
  });
});

describe('defaults of env-reading calls with the name quoted', () => {
  const token = fakeToken('', 24, undefined, 'env-call-default');
  test.each([
    ['cmd/main.go', `\treturn utils.GetEnvOrDefault("api_token", "${token}")`],
    ['src/config.ts', `const key = getEnvOr('API_KEY', '${token}');`],
  ])('%s: the default is found', (path, line) => {
    expect(found(`${line}\n`, path)).toEqual([['generic-secret', token, 1]]);
  });
  test('a UUID under an api_token name is a credential, under a request_token name it is not', () => {
    const uuid = '3c9f1e2a-7b4d-4e8a-9f21-6d5c8b0a4e17';
    expect(found(`x := GetEnvOrDefault("api_token", "${uuid}")\n`, 'main.go')).toEqual([['generic-secret', uuid, 1]]);
    expect(found(`x := GetEnvOrDefault("request_token", "${uuid}")\n`, 'main.go')).toEqual([]);
  });
});

describe('private keys closed by another type’s END line', () => {
  test('a PKCS#8 key assembled in code and closed with END RSA PRIVATE KEY is one finding', () => {
    const lines = fakePem('PRIVATE KEY', 'mismatched').split('\n');
    lines[lines.length - 1] = '-----END RSA PRIVATE KEY-----';
    const code = `String k = "${lines.join('\\\\n"\n  + "')}";\n`;
    expect(found(code, 'src/Keys.java').map(([id, , line]) => [id, line])).toEqual([['private-key-pkcs8', 1]]);
  });
});

describe('typed stand-ins', () => {
  test('a token ending in a count-down (…987654) is a stand-in', () => {
    expect(found(`GROQ_API_KEY=${fakeToken('gsk_', 46, undefined, 'count-down')}987654\n`, '.env')).toEqual([]);
  });
  test('an algorithm name under a secret-like name is not a secret', () => {
    expect(found('authorization: AWS4-HMAC-SHA256\n', 'config/s3.yaml')).toEqual([]);
  });
});
