import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  applyFixtureMode,
  fixturesNote,
  isFixture,
  isTestOrDocsPath,
  looksMadeUp,
  TEST_PATH_LAYOUTS,
} from './fixtures.js';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken, fakePem, fakeToken } from './sample-tokens.js';
import { scanTargets } from './scan-targets.js';
import { SecretScanner } from './scanner.js';

const scanner = new SecretScanner(builtinRules);

async function scan(path: string, text: string) {
  const outcome = await scanTargets([{ path, read: async () => Buffer.from(text) }], { scanner });
  return outcome.findings.map((finding) => ({
    rule: finding.ruleId,
    severity: finding.severity,
    fixture: finding.fixture ?? false,
  }));
}

describe('test and docs paths', () => {
  test.each([
    'test/db.py',
    'tests/unit/config.yml',
    'src/__tests__/api.ts',
    'spec/models/user_spec.rb',
    'lib/fixtures/users.yml',
    'pkg/parser/testdata/input.txt',
    'pkg/db/conn_test.go',
    'src/api.spec.ts',
    'src/api.test.js',
    'app/test_settings.py',
    'examples/quickstart.sh',
    'docs/setup.md',
    'README.md',
    'src/test/java/app/DbTest.java',
    '.env.example',
    'ormconfig.sample.json',
    'config/database.example.yml',
    'deploy/example.env',
  ])('%s is a test or docs path', (path) => {
    expect(isTestOrDocsPath(path)).toBe(true);
  });

  test.each([
    'src/db.ts',
    'config/database.yml',
    '.env',
    'deploy/values.yaml',
    'src/contest/entry.py',
    'latest/app.js',
    'app/models/sample_order.rb',
    'deploy/compose.yml.tpl',
    'config/settings.py.template',
    'src/main/resources/application.yml',
    'src/main/java/app/Keys.java',
    'contest/app.py',
    'latest/config.yml',
    'src/testing-utils.ts',
    'src/contestTest.ts',
    'src/attestation/keys.go',
    'app/greatest/config.yml',
    'src/Shop.Api/appsettings.json',
    'src/integration/db.yml',
    'src/itinerary/db.yml',
  ])('%s is not', (path) => {
    expect(isTestOrDocsPath(path)).toBe(false);
  });

  describe.each(TEST_PATH_LAYOUTS.map((layout) => [layout.layout, layout] as const))('%s', (_, layout) => {
    test.each(layout.examples)('%s is a test path of this layout', (path) => {
      expect(layout.pattern.test(path)).toBe(true);
      expect(isTestOrDocsPath(path)).toBe(true);
    });
  });

  test.each([
    'spring-boot-project/spring-boot-docker-tests/src/dockerTest/resources/application.properties',
    'spring-boot-tests/spring-boot-smoke-tests/spring-boot-smoke-test-web-secure/src/main/resources/application.properties',
    'smoke-test/app/src/main/resources/config.yml',
    'module/src/intTest/java/app/CassandraIT.java',
    'module/src/testFixtures/resources/keys.properties',
    'app/src/androidTest/java/app/LoginTest.kt',
    'plugin/src/it/settings.xml',
    'tests/Shop.UnitTests/appsettings.json',
    'Shop.Api.Test/config.json',
    'internal/parser/testdata/golden.json',
  ])('the build tools’ layouts: %s is a test path', (path) => {
    expect(isTestOrDocsPath(path)).toBe(true);
  });

  test('docs/validators/secrets.md names every layout', () => {
    const docs = readFileSync(new URL('../../docs/validators/secrets.md', import.meta.url), 'utf8');
    for (const { layout } of TEST_PATH_LAYOUTS) expect(docs).toContain(`| ${layout} |`);
  });
});

describe('made-up values', () => {
  test.each(['secret123', 'changeme1', 'aaaa1111', 'sk_test_fakefakefakefake', 'hunter2!', 'my-test-token-9'])(
    '%s looks made up',
    (value) => {
      expect(looksMadeUp(value)).toBe(true);
    },
  );

  test('a generated token does not', () => {
    expect(looksMadeUp(fakeToken('', 40, undefined, 'fixtures-real'))).toBe(false);
  });

  test('a checksum-valid GitHub or npm token is never a fixture, even in a test folder', () => {
    const token = fakeChecksumToken('ghp_', 'fixture-test');
    expect(isFixture({ ruleId: 'github-pat', generic: false, path: 'test/fixtures/auth.json', secret: token })).toBe(
      false,
    );
  });
});

describe('classification in a scan', () => {
  test('a generic password in a test folder is a low-severity fixture; the same line in src is high and blocks', async () => {
    const line = 'db_password = "Kx9mz2pQ-7"\n';
    expect(await scan('tests/settings.py', line)).toEqual([
      { rule: 'generic-password', severity: 'low', fixture: true },
    ]);
    expect(await scan('app/settings.py', line)).toEqual([
      { rule: 'generic-password', severity: 'high', fixture: false },
    ]);
  });

  test('a TLS key (PKCS#1, SEC1, PKCS#8) in a test path is a low-severity fixture; outside one it blocks', async () => {
    for (const label of ['RSA PRIVATE KEY', 'EC PRIVATE KEY', 'PRIVATE KEY']) {
      const pem = `${fakePem(label, 'fixture-key')}\n`;
      for (const path of ['src/test/resources/server.key', 'smoke-test/src/main/resources/tls.pem']) {
        expect(await scan(path, pem)).toEqual([expect.objectContaining({ severity: 'low', fixture: true })]);
      }
      expect(await scan('deploy/tls.key', pem)).toEqual([
        expect.objectContaining({ severity: 'critical', fixture: false }),
      ]);
      expect(await scan('src/main/resources/tls.key', pem)).toEqual([
        expect.objectContaining({ severity: 'critical', fixture: false }),
      ]);
    }
  });

  test('a registry login whose decoded user:password says "user" and "pass" is a fixture in a test path only', () => {
    const auth = Buffer.from('customUser:customPass').toString('base64');
    const input = { ruleId: 'docker-config-auth', generic: false, secret: auth };
    expect(isFixture({ ...input, path: 'src/test/resources/docker/config.json' })).toBe(true);
    expect(isFixture({ ...input, path: 'deploy/docker/config.json' })).toBe(false);
    const random = Buffer.from('deploy:Kx9mz2qZ7vTbW4').toString('base64');
    expect(isFixture({ ...input, secret: random, path: 'src/test/resources/docker/config.json' })).toBe(false);
  });

  test('a login or signing key (OpenSSH, PGP, PuTTY, JWK) is never a fixture: in a test path it blocks as anywhere', async () => {
    const pgp = `${fakePem('PGP PRIVATE KEY BLOCK', 'fixture-key')}\n`;
    expect(await scan('test/integration/targets/git/vars/main.yml', pgp)).toEqual([
      { rule: 'private-key-pgp', severity: 'critical', fixture: false },
    ]);
    for (const ruleId of ['private-key-openssh', 'private-key-putty', 'private-key-jwk', 'private-key-base64']) {
      expect(isFixture({ ruleId, generic: false, path: 'test/id_ed25519', secret: 'AAAA' })).toBe(false);
    }
  });

  test('a generic password in a Gradle source set, a test module or a .NET test project is a fixture', async () => {
    const line = 'db_password = "Kx9mz2pQ-7"\n';
    for (const path of ['src/dockerTest/resources/db.properties', 'smoke-test/db.properties', 'Shop.Tests/db.ini']) {
      expect(await scan(path, line)).toEqual([{ rule: 'generic-password', severity: 'low', fixture: true }]);
    }
  });

  test('a random-looking provider key in a test folder still blocks', async () => {
    const token = fakeChecksumToken('ghp_', 'fixture-scan');
    expect(await scan('spec/fixtures/config.yml', `github_token: ${token}\n`)).toEqual([
      { rule: 'github-pat', severity: 'critical', fixture: false },
    ]);
  });
});

describe('documentation examples in program code', () => {
  const docComment = [
    'module Auth',
    '  # Returns the user when the password matches, otherwise +nil+.',
    '  #',
    '  #   user.authenticate(password: "nohack4u")',
    '  def authenticate(password:); end',
    'end',
    '',
  ].join('\n');

  test('a password in a doc comment’s example is a fixture in library code, not in a config file', async () => {
    expect(await scan('lib/auth.rb', docComment)).toEqual([
      { rule: 'generic-password', severity: 'low', fixture: true },
    ]);
    const yaml = '# The password the worker uses, for instance:\n#   password: nohack4u\n';
    expect(await scan('config/worker.yml', yaml)).toEqual([
      { rule: 'generic-password', severity: 'high', fixture: false },
    ]);
  });

  test('a password in an Ansible module’s EXAMPLES is a fixture; one after a SQL string is not', async () => {
    const module = "EXAMPLES = r'''\n- name: Create a user\n  mysql_user:\n    password: \"nohack4u\"\n'''\n";
    expect(await scan('plugins/modules/mysql_user.py', module)).toEqual([
      { rule: 'generic-password', severity: 'low', fixture: true },
    ]);
    const sql = 'SETUP = """\nCREATE USER app;\n"""\npassword = "nohack4u"\n';
    expect(await scan('app/setup.py', sql)).toEqual([{ rule: 'generic-password', severity: 'high', fixture: false }]);
  });

  test('a password in commented-out code still blocks', async () => {
    expect(await scan('lib/auth.rb', '# def connect\n#   password = "nohack4u"\n')).toEqual([
      { rule: 'generic-password', severity: 'high', fixture: false },
    ]);
  });

  test('a random provider key in a doc example still blocks', async () => {
    const real = fakeChecksumToken('ghp_', 'doc-example');
    expect(await scan('client/client.go', `// Creates a client.\n//\n//   client := New("${real}")\n`)).toEqual([
      { rule: 'github-pat', severity: 'critical', fixture: false },
    ]);
  });

  test('a generic password in an example config file (.env.example) is a fixture', async () => {
    expect(await scan('.env.example', 'DB_PASSWORD=Kx9mz2pQ-7\n')).toEqual([
      { rule: 'generic-password', severity: 'low', fixture: true },
    ]);
  });
});

describe('modes', () => {
  const findings = [{ fixture: true as const }, {}, { fixture: true as const }];
  test('report shows all, blocks on the rest; block blocks all; ignore drops fixtures but counts them', () => {
    expect(applyFixtureMode(findings, 'report')).toMatchObject({ ignored: 0 });
    expect(applyFixtureMode(findings, 'report').blocking).toHaveLength(1);
    expect(applyFixtureMode(findings, 'report').shown).toHaveLength(3);
    expect(applyFixtureMode(findings, 'block').blocking).toHaveLength(3);
    expect(applyFixtureMode(findings, 'ignore')).toMatchObject({ shown: [{}], ignored: 2 });
  });

  test('the note counts them', () => {
    expect(fixturesNote(3, 0, 'details.fixtures')).toBe(
      '3 findings classified as test fixtures (not blocking; secrets.fixtures: report): see details.fixtures.',
    );
    expect(fixturesNote(0, 0, 'x')).toBe('');
  });
});
