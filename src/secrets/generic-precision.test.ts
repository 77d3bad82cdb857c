import { describe, expect, test } from 'vitest';
import { cpuMs } from '../../test/support/cpu-time.js';
import { isIdentifierShaped } from './name-shaped-values.js';
import { FIREBASE_SDK_TEST_KEYS, ONEPASSWORD_DOCS_EXAMPLE_KEYS } from './published-test-keys.js';
import { builtinRules } from './rules/index.js';
import { ALPHANUMERIC, fakeHex, fakeToken, LOWER_ALPHANUMERIC, URL_SAFE } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

/**
 * Values one character off a real format, and names or shapes that say a value is a stand-in: the false alarms other
 * scanners' negative examples are made of. Each case has its near twin that must still be found.
 */

const scanner = new SecretScanner(builtinRules);
const rulesFound = (text: string, path = 'config/app.env') =>
  scanner.scanText(text, { path }).map((item) => item.rule.id);

/** `value` with the character at `at` replaced by `char`. */
const withChar = (value: string, at: number, char: string) => value.slice(0, at) + char + value.slice(at + 1);

describe('a provider-named value off its provider format', () => {
  // Abyssale keys are 40 letters and digits.
  const key = fakeToken('', 40, LOWER_ALPHANUMERIC, 'precision-abyssale');

  test('in the format it is the provider key', () => {
    expect(rulesFound(`ABYSSALE_API_KEY=${key}\n`)).toEqual(['abyssale-named-key']);
  });

  test.each([
    ['one character too many', `${key}q`],
    ['one character short', key.slice(1)],
    ['one character outside the alphabet', withChar(key, 12, '_')],
  ])('%s: no finding, generic rules included', (_, value) => {
    expect(rulesFound(`ABYSSALE_API_KEY=${value}\n`)).toEqual([]);
  });

  test('a value far off the format is another credential, which the generic rule judges', () => {
    expect(rulesFound(`ABYSSALE_API_KEY=${fakeToken('', 64, ALPHANUMERIC, 'precision-far')}\n`)).toEqual([
      'generic-secret',
    ]);
  });

  test('a secret beside the provider name is not its API key: the generic rule judges it', () => {
    expect(rulesFound(`ABYSSALE_CLIENT_SECRET=${key.slice(1)}\n`)).toEqual(['generic-secret']);
  });

  test('hex keys come in one case: mixed-case hex is a hand-edited stand-in', () => {
    const hex = fakeHex(32, 'precision-amplitude');
    expect(rulesFound(`AMPLITUDE_API_KEY=${hex}\n`)).toEqual(['amplitude-named-key']);
    expect(rulesFound(`AMPLITUDE_API_KEY=${withChar(hex, hex.search(/[a-f]/), 'F')}\n`)).toEqual([]);
  });
});

describe('issued keys and tokens are written in token alphabets', () => {
  const token = fakeToken('', 32, ALPHANUMERIC, 'precision-token');

  test.each(['?', '^', '$', '['])('a token holding %s is a stand-in', (char) => {
    expect(rulesFound(`API_TOKEN="${withChar(token, 10, char)}"\n`)).toEqual([]);
  });

  test('URL escapes and id:secret pairs are token alphabet', () => {
    expect(rulesFound(`API_TOKEN="${withChar(token, 10, '%2F')}"\n`)).toEqual(['generic-secret']);
    expect(rulesFound(`ACCESS_TOKEN="${token.slice(0, 8)}:${token.slice(8)}"\n`)).toEqual(['generic-secret']);
  });

  test('a token in a URL query ends at the next parameter', () => {
    const line = `curl "https://api.acme.dev/v1/get?token=${token}&page=2"\n`;
    expect(rulesFound(line, 'scripts/fetch.sh')).toEqual(['generic-secret']);
  });

  test('secrets people choose may hold any symbol (Django keys, JWT secrets)', () => {
    const chosen = `${fakeToken('', 20, ALPHANUMERIC, 'precision-jwt')}!@#$%^&*(-_=+)`;
    expect(rulesFound(`JWT_SECRET='${chosen}'\n`)).toEqual(['generic-secret']);
  });
});

describe('names and shapes that say a value is a stand-in', () => {
  const token = fakeToken('', 32, ALPHANUMERIC, 'precision-name');

  test.each(['invalidToken', 'fake_api_key', 'nonMatchingToken', 'WRONG_PASSWORD', 'mockApiKey'])(
    '%s holds no working credential',
    (name) => {
      expect(rulesFound(`const ${name} = "${token}";\n`, 'src/client.test.ts')).toEqual([]);
    },
  );

  test('a word that merely starts like one is no such name', () => {
    expect(rulesFound(`const mockingbirdToken = "${token}";\n`, 'src/client.ts')).toEqual(['generic-secret']);
  });

  test('a Rails form authenticity token, a library name and a keying are not credentials', () => {
    const html = `<input type="hidden" name="authenticity_token" value="${token}" autocomplete="off" />\n`;
    expect(rulesFound(html, 'app/views/form.html')).toEqual([]);
    expect(rulesFound(`deps = "io.jsonwebtoken:jjwt-api-${token.slice(0, 6)}9"\n`, 'build.toml')).toEqual([]);
    expect(rulesFound(`vcpkg-master-keying:${token}\n`, 'ci/matrix.yaml')).toEqual([]);
  });

  test('string concatenation and escaped variables are code, not passwords', () => {
    expect(rulesFound(`echo 'password = '.$cfg['db_password'];\n`, 'setup.php')).toEqual([]);
    expect(rulesFound(`"run": "\\$pwd = \\$_POST[\\"password\\"];"\n`, 'snippets.json')).toEqual([]);
  });

  test('a value cut short with dots is an elided example', () => {
    expect(rulesFound(`api_token: ${token.slice(0, 16)}..\n`, 'docs/setup.yaml')).toEqual([]);
  });

  test('hex with one letter past f is a hand-edited digest', () => {
    const hex = fakeHex(32, 'precision-hex');
    expect(rulesFound(`api_secret = "${hex}"\n`, 'config/app.ini')).toEqual(['generic-secret']);
    expect(rulesFound(`api_secret = "${withChar(hex, 13, 'q')}"\n`, 'config/app.ini')).toEqual([]);
  });

  test('a provider prefix with a few characters after it is a token cut short', () => {
    expect(rulesFound(`token := "glpat-${token.slice(0, 8)}"\n`, 'main.go')).toEqual([]);
  });
});

describe('stand-in words are not passwords', () => {
  test('a doc comment example whose passphrase is the word "sample" has no finding', () => {
    const dts = [
      '/**',
      ' * ```js',
      ' * const options = {',
      " *   pfx: fs.readFileSync('test/fixtures/test_cert.pfx'),",
      " *   passphrase: 'sample',",
      ' * };',
      ' * ```',
      ' */',
      '',
    ].join('\n');
    expect(rulesFound(dts, 'types/https.d.ts')).toEqual([]);
  });

  test.each(['sample', 'dummy', 'Fake', 'mocked1'])('%s next to a password name is a stand-in', (word) => {
    expect(rulesFound(`smtp_password: "${word}"\n`, 'config/mail.yaml')).toEqual([]);
  });

  test('a short lowercase word that is no stand-in is still a password', () => {
    expect(rulesFound(`smtp_password: "kestrel"\n`, 'config/mail.yaml')).toEqual(['generic-password']);
  });
});

describe('published test keys', () => {
  test.each(FIREBASE_SDK_TEST_KEYS)(
    "Firebase's SDK test key %s is no finding; the same key one character off is",
    (key) => {
      expect(rulesFound(`const apiKey = "${key}";\n`, 'src/firebase.js')).toEqual([]);
      const changed = withChar(key, 20, key[20] === 'Q' ? 'R' : 'Q');
      expect(rulesFound(`const apiKey = "${changed}";\n`, 'src/firebase.js')).toEqual(['google-api-key']);
    },
  );

  test.each(ONEPASSWORD_DOCS_EXAMPLE_KEYS)(
    "1Password's documented example Secret Key %s is no finding; the same key one character off is",
    (key) => {
      const line = (value: string) =>
        `// It will be like ops_{"secretKey":"${value}","signInAddress":"gotham.b5local.com:4000"}\n`;
      expect(rulesFound(line(key), 'src/rule.js')).toEqual([]);
      const changed = withChar(key, 10, key[10] === 'Q' ? 'R' : 'Q');
      expect(rulesFound(line(changed), 'src/rule.js')).toEqual(['onepassword-secret-key']);
    },
  );
});

describe('names, format strings and media types under a secret-named key are not credentials', () => {
  test.each([
    [
      'a snake_case name with a counter',
      `{\n  "token_2": "cfg_access_key_2",\n  "token_3": "cfg_access_key_51692"\n}\n`,
      'config/keys.json',
    ],
    ['a name of words', `api_secret: "my_secret_name"\n`, 'config/app.yaml'],
    ['an upper-case reference', `API_TOKEN = "SECRET_REF_3"\n`, 'config/app.ini'],
    ['a camelCase name with a counter', `{"api_key": "myAccessKey2", "password": "dbUserPass12"}\n`, 'config/app.json'],
    ['a kebab-case name with a date', `client_secret: oauth-client-secret-20240101\n`, 'deploy/values.yaml'],
    [
      'a Python format string',
      `password = "pw{}".format(index)\npassword = "user{name}pass".format(name=n)\n`,
      'app/seed.py',
    ],
    ['a printf format string', `password = "admin%s" % suffix\n`, 'app/seed.py'],
    ['a placeholder sentence in JSON', `{"DB_PASSWORD": "set=it=here"}\n`, 'config/app.json'],
    ['a placeholder sentence in XML', `<DB_PASSWORD>set=it=here</DB_PASSWORD>\n`, 'config/app.xml'],
    ['a placeholder sentence in YAML', `DB_PASSWORD: set=it=here\n`, 'config/app.yaml'],
    [
      'reserved hash keys with a namespace prefix (Ruby constants)',
      `GLOBALID_KEY = "_aj_globalid"\nRUBY2_KEYWORDS_KEY = "_aj_ruby2_keywords"\nMETA_KEY = "__meta_key__"\n`,
      'lib/active_job/arguments.rb',
    ],
    ['a MIME type', `xpw=application/vnd.ms-xpsdocument\nxps=application/vnd.ms-xpsdocument\n`, 'conf/mime.types'],
  ])('%s: no finding', (_, text, path) => {
    expect(rulesFound(text, path)).toEqual([]);
  });

  test.each([
    ['a random token with underscores (base64url)', `api_token: "${fakeToken('', 43, URL_SAFE, 'ident-b64url')}_x9"\n`],
    [
      'a provider-shaped token with underscores',
      `API_TOKEN="ak_live_${fakeToken('', 24, ALPHANUMERIC, 'ident-live')}"\n`,
    ],
    ['a chosen password with an underscore', `password: "Tr0ub4dor_3"\n`],
    ['a capitalized word and digits', `password: "BlueSky42"\n`],
    ['one word and a counter', `password: "falcon_7"\n`],
    ['random lowercase words with digits inside', `api_secret: "qzv7_kx2mw9_pt4"\n`],
    ['a short prefix before random text', `api_secret: "_ak_qzv7kx2mw9pt4_xw"\n`],
  ])('%s under the same names is still found', (_, text) => {
    expect(rulesFound(text, 'config/app.yaml')).toHaveLength(1);
  });

  test('a secret that holds braces among other symbols is not a format string', () => {
    expect(rulesFound(`JWT_SECRET='Kx9{a}Qm#2$vL!7z'\n`, 'config/app.env')).toEqual(['generic-secret']);
  });

  test('a keyword-dense JSON document of names scans with no finding, in time linear in its size', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `  "token_${i}": "cfg_access_key_${i}",`);
    const text = `{\n${lines.join('\n')}\n  "end": 1\n}\n`;
    rulesFound(text, 'config/keys.json');
    let found: string[] = [];
    // CPU time, not wall time: a busy machine's wait for a core is not the scanner's cost.
    const spent = cpuMs(() => (found = rulesFound(text, 'config/keys.json')));
    expect(found).toEqual([]);
    expect(spent, `${spent.toFixed(0)} ms of CPU`).toBeLessThan(5_000);
  });
});

test('random base64url tokens of 16 characters or more are never taken for names', () => {
  const tokens = Array.from({ length: 3000 }, (_, i) => fakeToken('', 16 + (i % 32), URL_SAFE, `ident-random-${i}`));
  expect(tokens.filter(isIdentifierShaped)).toEqual([]);
});

describe('types are not values', () => {
  test.each(['Boolean!', 'String!', 'Secret!', 'Float?'])(
    'a GraphQL schema field typed %s under a password name is no finding',
    (type) => {
      const schema = `type User {\n  """\n  Whether or not users are verified\n  """\n  isPasswordAuthenticationVerifiable: ${type}\n  password: ${type}\n}\n`;
      expect(rulesFound(schema, 'schema.graphql')).toEqual([]);
    },
  );

  test('a chosen password ending in "!" is still found', () => {
    expect(rulesFound('password: "Kx9mz2pQ!"\n', 'config/app.yml')).toEqual(['generic-password']);
  });
});
