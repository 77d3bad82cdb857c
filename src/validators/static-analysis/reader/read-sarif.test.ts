import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { LineRange } from '../../../core/change-set/types.js';
import { eslintJsonSchema, eslintJsonToSarif } from '../producers/eslint-json-to-sarif.js';
import { repoPathOf } from './map-uri.js';
import { type ReadSarifOptions, readSarifFile, readSarifText } from './read-sarif.js';

const FIXTURES = join(import.meta.dirname, '../../../../test/fixtures/sarif');
const ROOT = '/work/repo';
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

function options(files: Record<string, LineRange[]>, extra: Partial<ReadSarifOptions> = {}): ReadSarifOptions {
  return {
    producer: 'codeql',
    label: 'codeql-javascript.sarif',
    repoRoot: ROOT,
    scope: { mode: 'changed_lines', files: new Map(Object.entries(files)) },
    ...extra,
  };
}

describe('readSarifText on recorded producer output', () => {
  test('CodeQL: keeps results on changed lines, drops the rest, dedupes, and keeps help, severity and the code flow', () => {
    const read = readSarifText(
      fixture('codeql/2.21/javascript-typescript.sarif'),
      options({ 'src/db.js': [{ start: 3, end: 5 }] }),
    );
    expect(read).toMatchObject({ ok: true, runs: 1, results: 4, tools: ['CodeQL'] });
    if (!read.ok) return;
    // The duplicate of the first result is still here: dedupe is by rule + location + fingerprint, across logs.
    expect(read.issues).toHaveLength(2);
    expect(read.issues[0]).toMatchObject({
      producer: 'codeql',
      toolName: 'CodeQL',
      ruleId: 'js/sql-injection',
      level: 'error',
      securitySeverity: 8.8,
      path: 'src/db.js',
      startLine: 4,
      startColumn: 20,
      fingerprint: '5c5a9a0a2b3c7d11:1',
      ruleTitle: 'Database query built from user-controlled sources',
      flow: [
        { path: 'src/db.js', line: 3, message: 'req.query.name' },
        { path: 'src/db.js', line: 4, message: `"SELECT * FROM users WHERE name = '" + name + "'"` },
      ],
    });
    expect(read.issues[0]?.help).toContain('Use query parameters');
  });

  test('CodeQL with scope changed_files keeps every result in a changed file, and none in others', () => {
    const read = readSarifText(fixture('codeql/2.21/javascript-typescript.sarif'), {
      ...options({ 'src/db.js': [{ start: 3, end: 5 }] }),
      scope: { mode: 'changed_files', files: new Map([['src/db.js', [{ start: 3, end: 5 }]]]) },
    });
    expect(read.ok && read.issues.map((issue) => `${issue.ruleId}@${issue.startLine}`)).toEqual([
      'js/sql-injection@4',
      'js/sql-injection@4',
      'js/unused-local-variable@9',
    ]);
  });

  test('Semgrep: takes the level from the rule, the fingerprint from matchBasedId, and drops in-source suppressions', () => {
    const read = readSarifText(
      fixture('semgrep/1.95/scan.sarif'),
      options({ 'src/app.py': [{ start: 1, end: 20 }] }, { producer: 'semgrep', label: 'semgrep.sarif' }),
    );
    expect(read.ok && read.issues).toEqual([
      expect.objectContaining({
        producer: 'semgrep',
        toolName: 'Semgrep OSS',
        ruleId: 'python.lang.security.audit.eval-detected.eval-detected',
        level: 'warning',
        path: 'src/app.py',
        startLine: 6,
        fingerprint: expect.stringMatching(/^0f6e1e9f/),
        helpUri: 'https://semgrep.dev/r/python.lang.security.audit.eval-detected.eval-detected',
      }),
    ]);
  });

  test('the ESLint SARIF formatter: absolute file URIs, and a file named by its artifact index', () => {
    const text = fixture('eslint/9.x/formatter-sarif.sarif').replaceAll('REPO_ROOT', ROOT);
    const read = readSarifText(text, options({ 'src/util.js': [{ start: 2, end: 2 }] }, { producer: 'eslint' }));
    expect(read.ok && read.issues).toEqual([
      expect.objectContaining({
        ruleId: 'no-eval',
        level: 'error',
        path: 'src/util.js',
        startLine: 2,
        helpUri: expect.any(String),
      }),
    ]);
  });

  test("ESLint's JSON output, mapped by us, reads the same way and keeps parse errors but not ignore notices", () => {
    const json = eslintJsonSchema.parse(JSON.parse(fixture('eslint/9.x/eslint.json').replaceAll('REPO_ROOT', ROOT)));
    const read = readSarifText(
      JSON.stringify(eslintJsonToSarif(json)),
      options(
        {
          'src/util.js': [{ start: 1, end: 10 }],
          'src/broken.js': [{ start: 1, end: 1 }],
          'dist/bundle.js': [{ start: 1, end: 1 }],
        },
        { producer: 'eslint' },
      ),
    );
    expect(read.ok && read.issues.map((issue) => [issue.ruleId, issue.level, issue.path, issue.startLine])).toEqual([
      ['no-eval', 'error', 'src/util.js', 2],
      ['no-unused-vars', 'warning', 'src/util.js', 5],
      ['eslint/parse-error', 'error', 'src/broken.js', 1],
    ]);
  });
});

describe('malformed SARIF is one line naming the producer, the file and the problem', () => {
  test.each([
    [
      'truncated.sarif',
      'codeql: bad.sarif: not valid JSON: unexpected end of input (is the file truncated?) at byte 111',
    ],
    ['wrong-version.sarif', 'codeql: bad.sarif: version: expected "2.1.0", got "2.0.0"'],
    [
      'string-start-line.sarif',
      'codeql: bad.sarif: runs[0].results[0].locations[0].physicalLocation.region.startLine: Invalid input: expected number, received string',
    ],
    ['no-tool.sarif', 'codeql: bad.sarif: runs[0].tool: missing (every run names the tool that produced it)'],
    ['not-json.sarif', 'codeql: bad.sarif: not valid JSON: unexpected "<" at byte 0'],
    ['runs-string.sarif', 'codeql: bad.sarif: runs: expected an array of runs, got a single value'],
    ['run-not-object.sarif', 'codeql: bad.sarif: runs[0]: expected an object (a run), got a single value'],
  ])('%s', async (file, problem) => {
    const read = await readSarifFile(
      join(FIXTURES, 'malformed', file),
      options({ 'src/a.py': [{ start: 1, end: 9 }] }, { label: 'bad.sarif' }),
    );
    expect(read).toEqual({ ok: false, problem });
  });

  test('a missing file says the producer did not write it', async () => {
    const read = await readSarifFile(
      join(FIXTURES, 'nope.sarif'),
      options({}, { producer: 'bandit', label: 'out/bandit.sarif' }),
    );
    expect(read).toEqual({
      ok: false,
      problem: 'bandit: out/bandit.sarif: no such file (the producer did not write it)',
    });
  });
});

describe('repoPathOf maps SARIF URIs to repository paths', () => {
  const context = {
    repoRoot: ROOT,
    sourceRoot: ROOT,
    baseIds: {
      SRC: { uri: 'file:///work/repo/src/' },
      LIB: { uri: 'lib/', uriBaseId: 'SRC' },
      CI: { uri: 'file:///home/runner/work/repo/repo/' },
    },
  };
  test.each([
    ['a %SRCROOT%-relative uri', { uri: 'src/a.ts', uriBaseId: '%SRCROOT%' }, 'src/a.ts'],
    ['a relative uri without a base', { uri: 'src/a.ts' }, 'src/a.ts'],
    ['a percent-encoded uri', { uri: 'src/my%20file.ts' }, 'src/my file.ts'],
    ['a ./-prefixed uri', { uri: './src/a.ts' }, 'src/a.ts'],
    ['a base id defined in originalUriBaseIds', { uri: 'a.ts', uriBaseId: 'SRC' }, 'src/a.ts'],
    ['a chain of base ids', { uri: 'b.ts', uriBaseId: 'LIB' }, 'src/lib/b.ts'],
    [
      'a base from another machine (CI checkout) falls back to the repo',
      { uri: 'src/a.ts', uriBaseId: 'CI' },
      'src/a.ts',
    ],
    ['an absolute file URI inside the repo', { uri: 'file:///work/repo/src/a.ts' }, 'src/a.ts'],
    ['an absolute path inside the repo', { uri: '/work/repo/src/a.ts' }, 'src/a.ts'],
    ['an absolute file URI outside the repo', { uri: 'file:///usr/lib/node/x.js' }, null],
    ['a relative uri climbing out of the repo', { uri: '../other/a.ts' }, null],
    ['another scheme', { uri: 'https://example.com/a.ts' }, null],
    ['no uri', {}, null],
  ])('%s', (_name, location, expected) => {
    expect(repoPathOf(location, context)).toBe(expected);
  });
});
