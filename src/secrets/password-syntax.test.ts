import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { fakeHumanPassword, fakeToken } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

/**
 * Passwords in the syntaxes people write them in beyond `password = "…"`: abbreviated and misspelled names, typed
 * declarations, default arguments, comparisons, macros, flags, SQL, libcurl, PowerShell. Each syntax is checked with a
 * real-looking password (found) and with every kind of stand-in (never found).
 */

const scanner = new SecretScanner(builtinRules);
const password = fakeHumanPassword('password-syntax');

/** Each syntax: a file path and the line with `V` where the value goes. */
const SYNTAXES: ReadonlyArray<readonly [name: string, path: string, line: string]> = [
  ['pw in prose', 'docs/wifi.txt', 'ID: admin PW: V'],
  ['pw pair after a comma', 'notes.md', 'user:deploy,pw:V'],
  ['pwd key', 'config/app.yaml', 'pwd: V'],
  ['pswd key', '.env', 'X3_PSWD=V'],
  ['misspelled pasword', 'settings.ini', 'pasword = V'],
  ['pass_word key', 'config.properties', 'db.pass_word=V'],
  ['Go-style :=', 'Makefile', 'PW:=V'],
  ['Java typed declaration', 'src/Db.java', 'String password = "V";'],
  ['Kotlin typed declaration', 'src/Db.kt', 'val dbPassword: String = "V"'],
  ['Python annotation', 'app/settings.py', 'password: str = "V"'],
  ['C pointer', 'src/auth.c', 'const char *pass = "V";'],
  ['default argument', 'app/db.py', 'def connect(host, passwd="V"):'],
  ['comparison ==', 'app/login.py', 'if pw == "V":'],
  ['comparison !=', 'src/login.js', 'if (userPw !== "V") return;'],
  ['#define', 'src/config.h', '#define DB_PASSWORD "V"'],
  ['%global', 'app.spec', '%global repo_password "V"'],
  ['PowerShell -Password', 'deploy/join.ps1', "New-LocalUser -Name svc -Password 'V'"],
  ['ConvertTo-SecureString', 'deploy/join.ps1', '$s = ConvertTo-SecureString "V" -AsPlainText -Force'],
  ['SQL IDENTIFIED BY', 'db/init.sql', "CREATE USER 'app'@'%' IDENTIFIED BY 'V';"],
  ['SQL WITH PASSWORD', 'db/init.sql', "ALTER ROLE app WITH LOGIN PASSWORD 'V';"],
  ['SQL Server login', 'db/logins.sql', "CREATE LOGIN app WITH PASSWORD = 'V';"],
  ['libcurl password', 'src/fetch.c', 'curl_easy_setopt(h, CURLOPT_PASSWORD, "V");'],
  ['libcurl user:password', 'lib/Client.php', "curl_setopt($ch, CURLOPT_USERPWD, 'deploy:V');"],
  ['single-dash flag', 'scripts/run.sh', 'tool -password "V" -host db.internal'],
  ['sshpass -p', 'scripts/deploy.sh', "sshpass -p 'V' ssh deploy@app.internal"],
  ['net use', 'scripts/map.bat', 'net use Z: \\\\files.internal\\builds V /user:CORP\\builder'],
  ['PGPASSWORD before psql', 'scripts/restore.sh', 'PGPASSWORD=V psql -h db.internal -U app app'],
  ['--password flag', 'Makefile', '\tpgcli --password V -h db.internal'],
  ['--password= flag', '.gitlab-ci.yml', '    - rabbitmqadmin --password=V list queues'],
  [
    'echo into --password-stdin',
    '.github/workflows/ci.yml',
    "      - run: echo 'V' | docker login -u ci --password-stdin",
  ],
  ['docker login -p', 'scripts/push.sh', 'docker login -u ci -p V registry.internal'],
  ['redis-cli -a', 'scripts/cache.sh', 'redis-cli -h cache.internal -a V ping'],
  ['PHP define, aligned', 'wp-config.php', "define( 'DB_PASSWORD',        'V' );"],
  ['PHP config array', 'application/config/database.php', "$db['default']['password'] = 'V';"],
  ['Flask config', 'app/__init__.py', "app.config['MAIL_PASSWORD'] = 'V'"],
];

/** Stand-ins a reader must never be warned about. */
const DECOYS = [
  'changeme',
  '<password>',
  '********',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable reference, the stand-in under test
  '${DB_PASSWORD}',
  '$(pass show db)',
  '$DB_PASSWORD',
  'os.environ["DB_PASSWORD"]',
  'process.env.DB_PASSWORD',
  'your-password-here',
  'REPLACE_ME',
  '',
  '0x81103c1452dd61cd',
  // A crypt(3) hash. A bare hex digest is not a decoy here: `openssl rand -hex 32` makes passwords of that shape.
  `$2b$12$${'R9h/cIPz0gi.URNNX3kh2O'.repeat(2)}PST9/PgBkqquzi.Ss7KIUgO2t0jWMUW`,
];

const render = (line: string, value: string) => `${line.replace('V', value)}\n`;

describe('passwords in every syntax', () => {
  test.each(SYNTAXES)('finds the password: %s', (_name, path, line) => {
    const found = scanner.scanText(render(line, password), { path });
    expect(found.map((item) => item.secret)).toEqual([password]);
  });

  test.each(SYNTAXES.flatMap(([name, path, line]) => DECOYS.map((decoy) => [name, decoy, path, line] as const)))(
    'ignores a stand-in: %s with %j',
    (_name, decoy, path, line) => {
      expect(scanner.scanText(render(line, decoy), { path }).map((item) => item.rule.id)).toEqual([]);
    },
  );

  test('ignores names that only contain the letters (compass, passenger, pwm)', () => {
    for (const line of ['compass = "V"', 'passenger: V', 'pwm = "V"', 'bypass = "V"']) {
      expect(scanner.scanText(render(line, password), { path: 'app/config.py' })).toEqual([]);
    }
  });

  test.each([
    [
      'prose with identified by',
      'types/protocol.d.ts',
      ' * Given a DOM element identified by nodeId, return its layers',
    ],
    ['ASN.1 comment', 'lib/pkcs.js', ' *   { {PBES2-params IDENTIFIED BY id-PBES2}, ...}'],
    ['token kind comparison', 'lib/parser.js', 'if (lastSignificantToken === "?NonExpressionParenKeyword") {'],
    ['token type comparison', 'lib/lexer.js', 'if (token === "Punctuator") return;'],
  ])('library code is not a finding: %s', (_name, path, line) => {
    expect(scanner.scanText(`${line}\n`, { path })).toEqual([]);
  });

  test('SQL keywords after PASSWORD are not passwords', () => {
    const text = "ALTER USER 'app'@'%' PASSWORD EXPIRE INTERVAL 90 DAY;\nALTER USER 'app'@'%' PASSWORD HISTORY 5;\n";
    expect(scanner.scanText(text, { path: 'db/policy.sql' })).toEqual([]);
  });
});

describe('short passwords next to a password name', () => {
  test.each([
    ['.env', 'DB_PASSWORD=kestrel'],
    ['config/app.yaml', 'password: mq4u'],
    ['app/settings.py', 'password = "lynx"'],
    ['scripts/restore.sh', 'PGPASSWORD=kestrel psql -h db.internal'],
  ])('finds %s: %s', (path, line) => {
    expect(scanner.scanText(`${line}\n`, { path }).map((item) => item.rule.id)).toHaveLength(1);
  });

  test.each([
    ['.env', 'DB_PASSWORD=abc'],
    ['.env', 'DB_PASSWORD=admin123'],
    ['.env', 'SA_PASSWORD=Admin12345'],
    ['.env', 'DB_PASSWORD=secret123'],
    ['app/settings.py', 'password = "hunter2"'],
    ['app/settings.py', 'password = "MySekretPa$$word"'],
    ['config.ini', 'password = %(db_pass)s'],
    ['config/app.yaml', 'password: "{{ vault_db_password }}"'],
    ['config/database.yml', 'password: <%= ENV["DB_PASSWORD"] %>'],
    ['config/app.yaml', 'password: Hidden'],
    ['lib/six.py', 'MovedAttribute("HTTPPasswordMgr", "urllib2", "urllib.request"),'],
    ['config/app.yaml', 'url: mysql2://myuser:mypass@localhost/app'],
    ['scripts/push.sh', 'echo "$REGISTRY_PASSWORD" | docker login -u ci --password-stdin'],
    ['docker/hana/hxe-config.json', '{ "master_password": "HXEHana1" }'],
    ['inventory.ini', `tomcat3 mysecret="'03#pa33w0rd'"`],
    ['CHANGELOG.md', 'client.authorization = Google::Auth::ServiceAccountCredentials.new(options)'],
  ])('ignores %s: %s', (path, line) => {
    expect(scanner.scanText(`${line}\n`, { path }).map((item) => `${item.rule.id}:${item.secret}`)).toEqual([]);
  });
});

describe('scripts without an extension', () => {
  test('a Python or Ruby script (by its #! line) is program code: an unquoted value is an expression', () => {
    const line = '        self.passwords = dict()\n';
    expect(scanner.scanText(`#!/usr/bin/env python\n${line}`, { path: 'bin/ansible-console' })).toEqual([]);
    expect(scanner.scanText(`#!/usr/bin/ruby\npassword = fetch\n`, { path: 'bin/setup' })).toEqual([]);
  });

  test('a shell script stays a config-like file: an unquoted value is the value', () => {
    const found = scanner.scanText('#!/bin/sh\nDB_PASSWORD=kestrel9 ./migrate\n', { path: 'bin/migrate' });
    expect(found.map((item) => item.secret)).toEqual(['kestrel9']);
  });

  test('read in pieces, a script is judged by its #! line all the same', () => {
    const stream = scanner.startStream({ path: 'bin/console' });
    stream?.push('#!/usr/bin/env python3\n');
    stream?.push('password = dict()\n');
    expect(stream?.end()).toEqual([]);
  });
});

describe('key names written as words in prose', () => {
  const key = fakeToken('', 24, undefined, 'prose-key');
  test.each(['Secret Key: V', 'SECRET KEY:V', 'API key: V', 'access key:V', 'Authentication key: V'])(
    'finds %s',
    (line) => {
      expect(scanner.scanText(render(line, key), { path: 'docs/setup.md' }).map((item) => item.secret)).toEqual([key]);
    },
  );

  test('a flag name may mix dashes and underscores', () => {
    const found = scanner.scanText(`tool --super-secret_token ${key}\n`, { path: 'scripts/run.sh' });
    expect(found.map((item) => item.secret)).toEqual([key]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable reference, the stand-in under test
  test.each(['your-api-key', '<API_KEY>', '${API_KEY}', 'see below'])('ignores API key: %s', (value) => {
    expect(scanner.scanText(render('API key: V', value), { path: 'docs/setup.md' })).toEqual([]);
  });
});

describe('references and placeholders never produce findings (fast-check)', () => {
  const identifier = fc.stringMatching(/^[A-Z][A-Z0-9_]{2,20}$/);
  const reference = fc.oneof(
    identifier.map((name) => `\${${name}}`),
    identifier.map((name) => `$${name}`),
    identifier.map((name) => `$(pass show ${name.toLowerCase()})`),
    identifier.map((name) => `os.environ["${name}"]`),
    identifier.map((name) => `process.env.${name}`),
    identifier.map((name) => `{{ .Values.${name.toLowerCase()} }}`),
    identifier.map((name) => `<${name.toLowerCase()}>`),
    fc.integer({ min: 4, max: 20 }).map((n) => '*'.repeat(n)),
    fc.constantFrom('changeme', 'your-password', 'example', 'REPLACE_ME', 'xxxxxxxx', '', 'redacted'),
  );

  test('in every new syntax', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SYNTAXES), reference, ([, path, line], value) => {
        const found = scanner.scanText(render(line, value), { path });
        expect(found.map((item) => `${item.rule.id}:${item.secret}`)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});
