import type { Severity } from '../core/finding.js';
import { shannonEntropy } from './entropy.js';
import { syntaxOf } from './syntax.js';

/**
 * Test fixtures: a credential-shaped value in a test, fixture, example or documentation path whose value looks made
 * up. Test suites are full of `password = "secret123"`; reporting each as a blocking secret buries the one real key.
 * Such a finding is still reported (`fixture: true`, low severity) and counted, but by default it does not block.
 * A real-format provider token that proves itself (a checksum) is never a fixture, wherever it is.
 */

/** `secrets.fixtures`: `report` shows and counts fixtures without blocking; `block` treats them as any finding; `ignore` drops them (still counted). */
export const FIXTURE_MODES = ['report', 'block', 'ignore'] as const;
export type FixtureMode = (typeof FIXTURE_MODES)[number];

/** Folders that hold tests, fixtures, examples or documentation, as a whole path segment. */
const TEST_DIR =
  /(?:^|\/)(?:tests?|__tests__|__mocks__|__fixtures__|specs?|fixtures?|testdata|test[_-]data|testing|testutils?|test[_-]?helpers?|mocks?|e2e|integration[_-]tests?|unit[_-]tests?|examples?|samples?|demos?|docs?|documentation|stubs?|testlib|t)\//i;
/** File names that say "test": `foo_test.go`, `foo.test.ts`, `foo.spec.js`, `test_foo.py`, `FooTest.java`, `conftest.py`. */
const TEST_FILE =
  /(?:^|\/)(?:test_[^/]*\.py|conftest\.py|[^/]*_(?:test|spec)\.[a-z]+|[^/]*\.(?:test|spec|e2e)\.[a-z]+|[^/]*(?:Tests?|Spec|IT)\.(?:java|kt|scala|cs|groovy|swift|php)|[^/]*\.(?:md|mdx|rst|adoc))$/;
/**
 * Files that show what a real one looks like, to be copied and filled in: `.env.example`, `ormconfig.sample.json`,
 * `config.example.yml`, `example.env`. (`.tpl`, `.template` and `.dist` files are often rendered or used as they are.)
 */
const EXAMPLE_FILE =
  /(?:^|\/)(?:[^/]*\.(?:examples?|sample)(?:\.[A-Za-z0-9]+)?|(?:examples?|sample)\.(?:env|ya?ml|json|toml|ini|conf|cfg|properties))$/i;

export function isTestOrDocsPath(path: string): boolean {
  return TEST_DIR.test(path) || TEST_FILE.test(path) || EXAMPLE_FILE.test(path);
}

/** Words people put in made-up credentials. */
const FIXTURE_WORDS =
  /test|fake|dummy|mock|fixture|sample|example|secret|passw|pass123|changeme|letmein|qwerty|hunter2|admin|invalid|wrong|bogus|stub|foo|bar|baz|abc|xyz|123|000|lorem|demo|my[-_]?(?:key|token|pass)|default|insecure|dev|local/i;

/**
 * Rules that judge a password by its syntax, not a provider format (URL credentials, Basic auth, DSNs, command-line
 * and SQL passwords, config entries, framework keys of a test app, password hashes of test users): in a test path
 * they are as made up as a generic match.
 */
const FORMATLESS_RULES =
  /^(?:generic|config-array|framework|basic-auth|database|broker|curl|shell|powershell|password-hash)-/;

/** Rules whose values prove their own format (CRC32 checksums): such a token is real wherever it is found. */
const CHECKSUM_RULES = /^(?:github|npm)-/;

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
  if (!isFixturePlace(input) || CHECKSUM_RULES.test(input.ruleId)) return false;
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
