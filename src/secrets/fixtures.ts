import type { Severity } from '../core/finding.js';
import { shannonEntropy } from './entropy.js';
import { syntaxOf } from './syntax.js';

/**
 * Test fixtures: a credential-shaped value in a test, fixture, example or documentation path whose value looks made
 * up. Test suites are full of `password = "secret123"`; reporting each as a blocking secret buries the one real key.
 * Such a finding is still reported (`fixture: true`, low severity) and counted, but by default it does not block.
 * A real-format provider token that proves itself (a checksum) and a personal private key (OpenSSH, PGP, PuTTY) are
 * never fixtures, wherever they are; a TLS key in a test path is.
 */

/** `secrets.fixtures`: `report` shows and counts fixtures without blocking; `block` treats them as any finding; `ignore` drops them (still counted). */
export const FIXTURE_MODES = ['report', 'block', 'ignore'] as const;
export type FixtureMode = (typeof FIXTURE_MODES)[number];

/** A test, fixture, example or documentation path of one layout, with paths it takes (its test and docs show them). */
export interface TestPathLayout {
  readonly layout: string;
  readonly pattern: RegExp;
  readonly examples: readonly string[];
}

/**
 * Where projects and their build tools keep tests, fixtures, examples and documentation: the one list the fixture
 * classification reads, shown in docs/validators/secrets.md. Folders match as whole path segments, so `src/main/`,
 * `contest/` and `latest/` are not test paths.
 */
export const TEST_PATH_LAYOUTS: readonly TestPathLayout[] = [
  {
    layout: 'test, fixture, mock, example and docs folders',
    pattern:
      /(?:^|\/)(?:tests?|__tests__|__mocks__|__fixtures__|specs?|fixtures?|test[_-]data|testing|testutils?|test[_-]?helpers?|mocks?|e2e|integration[_-]tests?|unit[_-]tests?|examples?|samples?|demos?|docs?|documentation|stubs?|testlib|t)\//i,
    examples: ['tests/unit/config.yml', 'src/__tests__/api.ts', 'lib/fixtures/users.yml', 'docs/setup.md'],
  },
  {
    layout: 'Gradle source sets other than main (`src/<name>Test/`, `src/testFixtures/`)',
    pattern: /(?:^|\/)src\/(?:[a-z][A-Za-z0-9]*Test|testFixtures)\//,
    examples: [
      'src/intTest/java/app/DbIT.java',
      'src/dockerTest/resources/application.yml',
      'module/src/testFixtures/java/app/Keys.java',
      'src/commonTest/kotlin/ApiTest.kt',
    ],
  },
  {
    layout: 'test modules (`*-test/`, `*-tests/`, `smoke-test/`)',
    pattern: /(?:^|\/)[\w.-]*[-_]tests?\//i,
    examples: ['smoke-test/app/src/main/resources/application.properties', 'spring-boot-docker-tests/config.yml'],
  },
  {
    layout: 'Maven integration tests (`src/it/`)',
    pattern: /(?:^|\/)src\/it\//,
    examples: ['plugin/src/it/simple/pom.xml'],
  },
  {
    layout: '.NET test projects (`*.Tests/`, `*.UnitTests/`, `*.IntegrationTests/`)',
    pattern: /(?:^|\/)[\w.-]+\.(?:Unit|Integration|Functional|Acceptance|E2E)?Tests?\//i,
    examples: ['src/Shop.Api.Tests/appsettings.json', 'Shop.IntegrationTests/Settings.cs'],
  },
  {
    layout: 'Go test data (`testdata/`)',
    pattern: /(?:^|\/)testdata\//,
    examples: ['pkg/parser/testdata/input.txt'],
  },
  {
    layout:
      'test files (`*_test.go`, `*.test.ts`, `*.spec.js`, `test_*.py`, `conftest.py`, `FooTest.java`, `FooIT.java`)',
    pattern:
      /(?:^|\/)(?:test_[^/]*\.py|conftest\.py|[^/]*_(?:test|spec)\.[a-z]+|[^/]*\.(?:test|spec|e2e)\.[a-z]+|[^/]*(?:Tests?|Spec|IT)\.(?:java|kt|scala|cs|groovy|swift|php))$/,
    examples: ['pkg/db/conn_test.go', 'src/api.spec.ts', 'app/test_settings.py', 'src/main/java/app/DbTest.java'],
  },
  {
    layout: 'Markdown, reStructuredText and AsciiDoc files',
    pattern: /\.(?:md|mdx|rst|adoc)$/,
    examples: ['README.md'],
  },
  {
    // `.tpl`, `.template` and `.dist` files are often rendered or used as they are.
    layout: 'example configs to copy (`.env.example`, `ormconfig.sample.json`, `example.env`)',
    pattern:
      /(?:^|\/)(?:[^/]*\.(?:examples?|sample)(?:\.[A-Za-z0-9]+)?|(?:examples?|sample)\.(?:env|ya?ml|json|toml|ini|conf|cfg|properties))$/i,
    examples: ['.env.example', 'ormconfig.sample.json', 'deploy/example.env'],
  },
];

export function isTestOrDocsPath(path: string): boolean {
  return TEST_PATH_LAYOUTS.some(({ pattern }) => pattern.test(path));
}

/** Words people put in made-up credentials. */
const FIXTURE_WORDS =
  /test|fake|dummy|mock|fixture|sample|example|secret|pass|changeme|letmein|qwerty|hunter2|admin|invalid|wrong|bogus|stub|foo|bar|baz|abc|xyz|123|000|lorem|demo|my[-_]?(?:key|token|pass)|default|insecure|dev|local/i;

/**
 * Rules that judge a password by its syntax, not a provider format (URL credentials, Basic auth, DSNs, command-line
 * and SQL passwords, config entries, framework keys of a test app, password hashes of test users): in a test path
 * they are as made up as a generic match.
 */
const FORMATLESS_RULES =
  /^(?:generic|config-array|framework|basic-auth|database|broker|curl|shell|powershell|password-hash)-/;

/** A rule that judges a value by its name or the syntax around it rather than by a provider format of its own. */
export function isFormatlessRule(rule: { readonly id: string; readonly generic?: boolean }): boolean {
  return rule.generic === true || FORMATLESS_RULES.test(rule.id);
}

/**
 * Rules whose findings are never fixtures: values that prove their own format (CRC32 checksums), and the private keys
 * a person holds (OpenSSH, PGP, PuTTY, a JWK, a base64-wrapped PEM as Kubernetes Secrets carry it). A key is random
 * whoever made it, so nothing in it says "made up"; a person clears such a key in a test (`tollgate waive`, a committed
 * baseline, `secrets.paths`).
 */
const NEVER_FIXTURE_RULES = /^(?:github-|npm-|private-key-)/;

/**
 * PEM keys in the formats TLS uses (PKCS#1 RSA, SEC1 EC, DSA, PKCS#8, encrypted PKCS#8): a test suite generates one
 * for each server, client and curve it tests (a JVM framework's test resources hold over a hundred), so in a test path
 * such a key is a fixture, still listed and counted. A login or signing identity (OpenSSH, PGP, PuTTY) is not.
 */
const TEST_TLS_KEY_RULES = /^private-key-(?:rsa|ec|dsa|pkcs8|encrypted)(?:-passphrase)?$/;

export interface FixtureInput {
  readonly ruleId: string;
  /** A generic rule judged the value by its name only (`password = …`). */
  readonly generic: boolean;
  readonly path: string;
  readonly secret: string;
  /** Its line is a documentation example in a comment or docstring (`doc-examples.ts`). */
  readonly docExample?: boolean;
}

/**
 * A test, fixture, example or docs path, or, in program code, a documentation example in a comment or docstring
 * (in a config file a commented-out entry may be the real one, so only code's doc examples count).
 */
function isFixturePlace(input: FixtureInput): boolean {
  return isTestOrDocsPath(input.path) || (input.docExample === true && syntaxOf(input.path) === 'code');
}

/** A finding whose place and value both say "test fixture". */
export function isFixture(input: FixtureInput): boolean {
  if (TEST_TLS_KEY_RULES.test(input.ruleId)) return isTestOrDocsPath(input.path);
  if (!isFixturePlace(input) || NEVER_FIXTURE_RULES.test(input.ruleId)) return false;
  if (input.generic || FORMATLESS_RULES.test(input.ruleId)) return true;
  return looksMadeUp(input.secret) || looksMadeUp(decodedBase64(input.secret) ?? '');
}

/**
 * A provider-format value that was typed, not generated: a word people use in stand-ins, a run of one character, or
 * too little variety for its length. Key blocks (long) are judged by variety only: random base64 contains any word.
 */
export function looksMadeUp(secret: string): boolean {
  if (secret.length === 0) return false;
  if (/(.)\1{3,}/.test(secret)) return true;
  if (secret.length <= 100 && FIXTURE_WORDS.test(secret)) return true;
  return shannonEntropy(secret) < (secret.length >= 20 ? 3.3 : 2.5);
}

/** The text inside a base64 value (a Basic auth header, a k8s Secret field), when it is printable. */
function decodedBase64(value: string): string | null {
  if (value.length < 8 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const text = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) ? text : null;
}

/** A fixture's severity: low, so reports sort it after real findings and SARIF shows it as a note. */
export function fixtureSeverity(severity: Severity): Severity {
  return severity === 'info' ? 'info' : 'low';
}

/** Splits findings by the mode: what blocks, what is shown without blocking, how many were dropped. */
export function applyFixtureMode<T extends { readonly fixture?: boolean }>(
  findings: readonly T[],
  mode: FixtureMode,
): { blocking: T[]; fixtures: T[]; shown: T[]; ignored: number } {
  const fixtures = findings.filter((finding) => finding.fixture === true);
  if (mode === 'block') return { blocking: [...findings], fixtures, shown: [...findings], ignored: 0 };
  const blocking = findings.filter((finding) => finding.fixture !== true);
  if (mode === 'ignore') return { blocking, fixtures: [], shown: blocking, ignored: fixtures.length };
  return { blocking, fixtures, shown: [...findings], ignored: 0 };
}

/** "3 findings classified as test fixtures (not blocking): a.py:4, b.rb:9 (see …)", or '' when there are none. */
export function fixturesNote(fixtures: number, ignored: number, where: string): string {
  if (fixtures > 0)
    return `${fixtures} finding${fixtures === 1 ? '' : 's'} classified as test fixture${fixtures === 1 ? '' : 's'} (not blocking; secrets.fixtures: report): see ${where}.`;
  if (ignored > 0)
    return `${ignored} finding${ignored === 1 ? '' : 's'} classified as test fixture${ignored === 1 ? '' : 's'} and not shown (secrets.fixtures: ignore).`;
  return '';
}

interface Placed {
  readonly ruleId: string;
  readonly path: string;
  readonly line: number;
  readonly masked: string;
  readonly fingerprint: string;
  readonly fixture?: boolean;
}

/**
 * The gate's view: which of the work tree's and the history's findings fail the run, what `details.fixtures` lists
 * (place, rule and masked value only) and the summary's count.
 */
export function gateFixtures<T extends Placed, H extends Placed>(
  tree: readonly T[],
  history: readonly H[],
  mode: FixtureMode,
): { tree: T[]; history: H[]; details: { fixtures?: object }; note: string } {
  const now = applyFixtureMode(tree, mode);
  const past = applyFixtureMode(history, mode);
  const listed = mode === 'block' ? [] : [...now.fixtures, ...past.fixtures];
  const ignored = now.ignored + past.ignored;
  const list = listed.map(({ ruleId, path, line, masked, fingerprint }) => ({
    ruleId,
    path,
    line,
    masked,
    fingerprint,
  }));
  return {
    tree: now.blocking,
    history: past.blocking,
    details: listed.length + ignored > 0 ? { fixtures: { mode, count: listed.length + ignored, list } } : {},
    note: fixturesNote(listed.length, ignored, 'details.fixtures'),
  };
}
