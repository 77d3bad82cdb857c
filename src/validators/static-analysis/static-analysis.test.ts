import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { toolContext } from '../../../test/support/tool-context.js';
import type { ChangedFile, RepoChangeSet } from '../../core/change-set/types.js';
import { runProcess } from '../../core/process.js';
import { staticAnalysisTool } from './index.js';
import type { StaticAnalysisOptions } from './options.js';
import { diffRangeRows, renderDiffRangeData } from './producers/codeql/diff-range-pack.js';
import { runStaticAnalysis } from './run-static-analysis.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/sarif');
const FAKE_PATH = `${join(FIXTURES, 'fake-codeql')}:${join(FIXTURES, 'fake-semgrep')}:/usr/local/bin:/usr/bin:/bin`;
const NO_TOOLS_PATH = '/usr/local/bin:/usr/bin:/bin';

const DB_JS = [
  "const express = require('express');",
  'function find(req, db) {',
  '  const name = req.query.name;',
  '  return db.query("SELECT * FROM users WHERE name = \'" + name + "\'");',
  '}',
  '',
  'module.exports = { find };',
  '',
  'const legacy = 1;',
  '',
].join('\n');

interface Harness {
  repo: TempRepo;
  run(options: {
    changed: Record<string, { start: number; end: number }[]>;
    options?: unknown;
    env?: NodeJS.ProcessEnv;
    deleted?: string[];
  }): ReturnType<typeof staticAnalysisTool.run> extends Promise<infer R> ? Promise<R & { progress: string[] }> : never;
}

async function harness(files: Record<string, string>): Promise<Harness> {
  const repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
  for (const [path, text] of Object.entries(files)) await repo.write(path, text);
  return {
    repo,
    async run({ changed, options = {}, env = {}, deleted = [] }) {
      const base = (await repo.git('rev-parse', 'HEAD')).trim();
      const changedFiles: ChangedFile[] = [
        ...Object.entries(changed).map(([path, ranges]) => ({
          path,
          status: 'modified' as const,
          binary: false,
          addedLines: ranges,
          changedLines: ranges,
          size: 1,
        })),
        ...deleted.map((path) => ({
          path,
          status: 'deleted' as const,
          binary: false,
          addedLines: [],
          changedLines: [],
          size: 0,
        })),
      ].sort((a, b) => (a.path < b.path ? -1 : 1));
      const read = async (path: string) => readFile(join(repo.root, path)).catch(() => null);
      const changeSet: RepoChangeSet = {
        root: repo.root,
        base: { ref: 'HEAD', commit: base, source: 'head' },
        files: changedFiles,
        ignored: [],
        skipped: [],
        fingerprint: 'test',
        isEmpty: changedFiles.length === 0,
        head: null,
        hasCommits: false,
        readText: async (path) => (await read(path))?.toString('utf8') ?? null,
        readBytes: read,
        diff: async () => '',
      };
      const controller = new AbortController();
      const testEnv = { ...repo.env, PATH: FAKE_PATH, ...env };
      const ctx = toolContext<StaticAnalysisOptions, unknown>({
        repoRoot: repo.root,
        changeSet,
        options: staticAnalysisTool.optionsSchema.parse(options),
        input: {},
        signal: controller.signal,
        artifactsDir: join(repo.root, '.tollgate', 'runs', 'r1', 'static_analysis'),
        env: testEnv,
        runProcess: (command, args, processOptions) =>
          runProcess(command, args, {
            ...processOptions,
            env: { ...(processOptions.env ?? {}), ...testEnv },
            signal: controller.signal,
          }),
      });
      return { ...(await runStaticAnalysis(ctx)), progress: ctx.progressLines };
    },
  } as Harness;
}

const onlyCodeql = { semgrep: { enabled: false }, eslint: { enabled: false } };

function codeqlCalls(log: string): { argv: string[]; diffRange?: string; changes?: string[] }[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** The codeql producer's details in a static_analysis result. */
function codeqlDetails(outcome: { details?: Record<string, unknown> }): Record<string, unknown> | undefined {
  const producers = outcome.details?.producers as { producer: string; details?: Record<string, unknown> }[];
  return producers.find((report) => report.producer === 'codeql')?.details;
}

describe('static_analysis with a fake codeql on PATH', () => {
  let h: Harness;
  let log: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    h = await harness({ 'src/db.js': DB_JS, 'src/untouched.js': 'x\n', 'app/main.py': 'print(1)\n' });
    log = join(h.repo.home, 'codeql.log');
    env = { FAKE_CODEQL_LOG: log, FAKE_CODEQL_SARIF_DIR: join(FIXTURES, 'codeql/2.21') };
  });
  afterEach(() => h.repo.cleanup());

  test('creates the database, restricts alerts to the changed lines and reports results on them', async () => {
    const outcome = await h.run({ changed: { 'src/db.js': [{ start: 3, end: 5 }] }, options: onlyCodeql, env });
    const database = join(h.repo.root, '.tollgate/cache/codeql/databases/javascript-typescript');
    const artifacts = join(h.repo.root, '.tollgate/runs/r1/static_analysis');
    const packDir = join(artifacts, 'codeql-packs/javascript-typescript');
    const calls = codeqlCalls(log);
    expect(calls.map((call) => call.argv)).toEqual([
      ['resolve', 'languages', '--format=json'],
      ['version', '--format=json'],
      [
        'database',
        'create',
        database,
        '--language=javascript-typescript',
        `--source-root=${h.repo.root}`,
        '--overwrite',
        '--threads=0',
        '--build-mode=none',
      ],
      [
        'database',
        'analyze',
        database,
        'codeql/javascript-queries:codeql-suites/javascript-code-scanning.qls',
        '--format=sarif-latest',
        `--output=${join(artifacts, 'codeql-javascript-typescript.sarif')}`,
        '--sarif-category=javascript-typescript',
        '--threads=0',
        `--additional-packs=${packDir}`,
        '--extension-packs=tollgate/pr-diff-range',
      ],
    ]);
    expect(calls[3]?.diffRange).toBe(renderDiffRangeData([[join(h.repo.root, 'src/db.js'), 3, 5]]));
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toBe(
      '1 result(s) at high or above on the change from codeql; fix them and run tollgate again',
    );
    expect(outcome.findings).toEqual([
      expect.objectContaining({
        validator: 'static_analysis',
        ruleId: 'js/sql-injection',
        severity: 'high',
        title: 'js/sql-injection: This query string depends on a [user-provided value](1).',
        path: 'src/db.js',
        line: 4,
        column: 20,
        sources: ['codeql'],
      }),
    ]);
    expect(outcome.findings[0]?.body).toContain('Data flow:\n1. src/db.js:3 req.query.name');
    expect(outcome.details).toMatchObject({
      producers: expect.arrayContaining([
        expect.objectContaining({
          producer: 'codeql',
          state: 'ran',
          details: {
            languages: { 'javascript-typescript': { status: 'analyzed', detail: '1 changed file(s)' } },
            // Too old for overlays: a full database.
            cliVersion: '2.21.0',
            overlay: false,
          },
        }),
      ]),
    });
  });

  test('skips a language unchanged since its last analysis, and its results stand', async () => {
    const first = await h.run({ changed: { 'src/db.js': [{ start: 3, end: 5 }] }, options: onlyCodeql, env });
    const second = await h.run({ changed: { 'src/db.js': [{ start: 3, end: 5 }] }, options: onlyCodeql, env });
    expect(codeqlCalls(log).filter((call) => call.argv[1] === 'create')).toHaveLength(1);
    expect(second.status).toBe('failed');
    expect(second.findings.map((finding) => finding.id)).toEqual(first.findings.map((finding) => finding.id));
    const languages = (second.details!.producers as { producer: string; details?: { languages: object } }[]).find(
      (report) => report.producer === 'codeql',
    )?.details?.languages;
    expect(languages).toEqual({
      'javascript-typescript': {
        status: 'skipped_no_changes',
        detail: expect.stringMatching(
          /^no javascript-typescript file changed since the analysis at .*; its 1 result\(s\) stand$/,
        ),
      },
    });

    // A Python change analyzes Python only; JavaScript still stands on its last analysis.
    await h.repo.write('app/main.py', 'print(2)\n');
    await h.run({
      changed: { 'src/db.js': [{ start: 3, end: 5 }], 'app/main.py': [{ start: 1, end: 1 }] },
      options: onlyCodeql,
      env,
    });
    const creates = codeqlCalls(log).filter((call) => call.argv[1] === 'create');
    expect(creates.map((call) => call.argv[3])).toEqual(['--language=javascript-typescript', '--language=python']);
  });

  test('a language over codeql.maxRepoSizeBytes is not analyzed, and that is incomplete, never a pass', async () => {
    const outcome = await h.run({
      changed: { 'src/db.js': [{ start: 3, end: 5 }] },
      options: { ...onlyCodeql, codeql: { maxRepoSizeBytes: 100 } },
      env,
    });
    expect(codeqlCalls(log).map((call) => call.argv.slice(0, 2).join(' '))).toEqual([
      'resolve languages',
      'version --format=json',
    ]);
    expect(outcome.status).toBe('incomplete');
    expect(outcome.summary).toBe(
      'codeql did not analyze javascript-typescript: over 100B of javascript-typescript source (codeql.maxRepoSizeBytes); raise it to analyze; the change is not validated until it is analyzed',
    );
    expect(JSON.stringify(outcome.details)).toContain(
      '"javascript-typescript":{"status":"skipped_too_large","detail":"over 100B of javascript-typescript source (codeql.maxRepoSizeBytes); raise it to analyze"}',
    );
  });

  test('a failing database create is an error that names the language and the CodeQL message', async () => {
    const outcome = await h.run({
      changed: { 'src/db.js': [{ start: 3, end: 5 }] },
      options: onlyCodeql,
      env: { ...env, FAKE_CODEQL_FAIL: 'create' },
    });
    expect(outcome).toMatchObject({
      status: 'error',
      summary: 'codeql (javascript-typescript): database create exited 1: A fatal error occurred: fake create failure',
    });
  });

  test('an analysis that outlives codeql.timeout is a timeout that says not to rerun', async () => {
    const outcome = await h.run({
      changed: { 'src/db.js': [{ start: 3, end: 5 }] },
      options: { ...onlyCodeql, codeql: { timeout: '1s' } },
      env: { ...env, FAKE_CODEQL_HANG: 'analyze' },
    });
    expect(outcome.status).toBe('timeout');
    expect(outcome.summary).toContain('do not rerun');
  });

  test('codeql missing from PATH is tool_unavailable with how to install it', async () => {
    const outcome = await h.run({
      changed: { 'src/db.js': [{ start: 3, end: 5 }] },
      options: onlyCodeql,
      env: { PATH: NO_TOOLS_PATH },
    });
    expect(outcome).toMatchObject({
      status: 'tool_unavailable',
      summary:
        'no analyzer could run: codeql: `codeql` is not on PATH; install the CodeQL CLI bundle (https://github.com/github/codeql-action/releases) and put `codeql` on PATH (docs/validators/static-analysis.md#codeql)',
    });
  });
});

describe('CodeQL overlay databases: the base built once per base commit, only the change extracted over it', () => {
  let h: Harness;
  let log: string;
  let env: NodeJS.ProcessEnv;
  let home: string;
  beforeEach(async () => {
    h = await harness({ 'src/db.js': DB_JS, 'src/util.js': 'exports.u = 1;\n', 'app/main.py': 'print(1)\n' });
    await h.repo.git('add', '-A');
    await h.repo.git('commit', '-q', '-m', 'base');
    log = join(h.repo.home, 'codeql.log');
    const cache = join(h.repo.home, 'xdg-cache');
    env = {
      FAKE_CODEQL_LOG: log,
      FAKE_CODEQL_SARIF_DIR: join(FIXTURES, 'codeql/2.21'),
      FAKE_CODEQL_VERSION: '2.24.0',
      XDG_CACHE_HOME: cache,
    };
    const repoKey = createHash('sha256').update(h.repo.root).digest('hex').slice(0, 16);
    home = join(cache, 'tollgate', 'codeql', repoKey, 'javascript-typescript');
  });
  afterEach(() => h.repo.cleanup());

  test('first run: base from the base commit, overlay of the changed file, alerts on the changed lines', async () => {
    await h.repo.write('src/db.js', `${DB_JS}// edited\n`);
    const outcome = await h.run({ changed: { 'src/db.js': [{ start: 3, end: 5 }] }, options: onlyCodeql, env });
    const source = join(home, 'source');
    const baseDb = join(home, 'base-db');
    const database = join(h.repo.root, '.tollgate/cache/codeql/databases/javascript-typescript');
    const calls = codeqlCalls(log);
    expect(calls.map((call) => call.argv.slice(0, 2).join(' '))).toEqual([
      'resolve languages',
      'version --format=json',
      'database init',
      'database trace-command',
      'database finalize',
      'database cleanup',
      'database init',
      'database trace-command',
      'database finalize',
      'database analyze',
    ]);
    expect(calls[2]?.argv).toEqual([
      'database',
      'init',
      baseDb,
      '--force-overwrite',
      '--language=javascript-typescript',
      `--source-root=${source}`,
      '--build-mode=none',
      '--overlay-base',
    ]);
    expect(calls[6]?.argv.slice(0, 3)).toEqual(['database', 'init', database]);
    expect(calls[6]?.changes).toEqual(['src/db.js']);
    // CodeQL read the snapshot written over the base tree; the diff range names files where CodeQL read them.
    expect(readFileSync(join(source, 'src/db.js'), 'utf8')).toBe(`${DB_JS}// edited\n`);
    expect(readFileSync(join(source, 'src/util.js'), 'utf8')).toBe('exports.u = 1;\n');
    expect(calls[9]?.diffRange).toBe(renderDiffRangeData([[join(source, 'src/db.js'), 3, 5]]));
    expect(outcome.status).toBe('failed');
    expect(outcome.findings.map((finding) => `${finding.path}:${finding.line}`)).toEqual(['src/db.js:4']);
    expect(codeqlDetails(outcome)).toMatchObject({ cliVersion: '2.24.0', overlay: true });
  });

  test('the next change on the same base reuses the base and puts back what the last overlay wrote', async () => {
    await h.repo.write('src/db.js', `${DB_JS}// edited\n`);
    await h.run({ changed: { 'src/db.js': [{ start: 3, end: 5 }] }, options: onlyCodeql, env });
    await h.repo.write('src/db.js', DB_JS);
    await h.repo.write('src/util.js', 'exports.u = 2;\n');
    await h.run({ changed: { 'src/util.js': [{ start: 1, end: 1 }] }, options: onlyCodeql, env });
    const inits = codeqlCalls(log).filter((call) => call.argv[1] === 'init');
    expect(inits.map((call) => call.argv.includes('--overlay-base'))).toEqual([true, false, false]);
    expect(inits[2]?.changes).toEqual(['src/util.js']);
    expect(readFileSync(join(home, 'source/src/db.js'), 'utf8')).toBe(DB_JS);
    expect(readFileSync(join(home, 'source/src/util.js'), 'utf8')).toBe('exports.u = 2;\n');
  });

  test('a new base commit builds a new base; codeql.overlay: false and older CLIs build the full database', async () => {
    await h.repo.write('src/db.js', `${DB_JS}// edited\n`);
    await h.run({ changed: { 'src/db.js': [{ start: 3, end: 5 }] }, options: onlyCodeql, env });
    await h.repo.git('commit', '-q', '-am', 'next base');
    await h.repo.write('src/util.js', 'exports.u = 3;\n');
    await h.run({ changed: { 'src/util.js': [{ start: 1, end: 1 }] }, options: onlyCodeql, env });
    const bases = codeqlCalls(log).filter((call) => call.argv.includes('--overlay-base'));
    expect(bases).toHaveLength(2);

    await h.repo.write('src/util.js', 'exports.u = 4;\n');
    const full = await h.run({
      changed: { 'src/util.js': [{ start: 1, end: 1 }] },
      options: { ...onlyCodeql, codeql: { overlay: false } },
      env,
    });
    // The version is read with overlays off too: telemetry records which CodeQL ran.
    expect(codeqlDetails(full)).toMatchObject({ cliVersion: '2.24.0', overlay: false });
    await h.repo.write('src/util.js', 'exports.u = 5;\n');
    await h.run({
      changed: { 'src/util.js': [{ start: 1, end: 1 }] },
      options: onlyCodeql,
      env: { ...env, FAKE_CODEQL_VERSION: '2.23.0' },
    });
    expect(codeqlCalls(log).filter((call) => call.argv[1] === 'create')).toHaveLength(2);
  });

  test('a failing overlay base is an error naming the step, and no half-built base is kept', async () => {
    await h.repo.write('src/db.js', `${DB_JS}// edited\n`);
    const outcome = await h.run({
      changed: { 'src/db.js': [{ start: 3, end: 5 }] },
      options: onlyCodeql,
      env: { ...env, FAKE_CODEQL_FAIL: 'init' },
    });
    expect(outcome).toMatchObject({
      status: 'error',
      summary: 'codeql (javascript-typescript): database init exited 1: A fatal error occurred: fake init failure',
    });
    expect(existsSync(home)).toBe(false);
  });
});

describe('static_analysis with configured analyzers, Semgrep and ESLint', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({
      'src/db.js': DB_JS,
      'src/app.py': `${'x = 1\n'.repeat(5)}    return eval(expression)\n${'y = 2\n'.repeat(8)}`,
      'src/util.js': "const a = 1;\nconst b = eval('2');\n\n\nconst unused = 3;\n",
    });
  });
  afterEach(() => h.repo.cleanup());

  const analyzer = (run: string, extra: object = {}) => ({
    codeql: { enabled: false },
    semgrep: { enabled: false },
    eslint: { enabled: false },
    analyzers: [{ name: 'custom', run, sarif: '.tollgate/custom.sarif', ...extra }],
  });
  const codeqlSarif = join(FIXTURES, 'codeql/2.21/javascript-typescript.sarif');

  test('reads the log an analyzer writes, even when it exits non-zero, and gives it the changed files', async () => {
    const outcome = await h.run({
      changed: { 'src/db.js': [{ start: 4, end: 4 }] },
      options: analyzer(
        `cp '${codeqlSarif}' "$TOLLGATE_SARIF"; cp "$TOLLGATE_CHANGED_FILES" .tollgate/seen.txt; exit 1`,
      ),
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.findings.map((finding) => [finding.ruleId, finding.line, finding.sources])).toEqual([
      ['js/sql-injection', 4, ['custom']],
    ]);
    // The same NUL-separated list a check gets.
    expect(readFileSync(join(h.repo.root, '.tollgate/seen.txt'), 'utf8')).toBe('src/db.js\0');
  });

  test.each([
    [
      'an analyzer that writes no log is an error',
      'echo scanning',
      'error',
      'custom: custom exited 0 without writing .tollgate/custom.sarif (analyzers[0].sarif): scanning',
    ],
    [
      'an analyzer whose command is missing is tool_unavailable',
      'no-such-analyzer --sarif out',
      'tool_unavailable',
      'a required analyzer is not installed: custom: analyzers[0].run: command not found (sh: 1: no-such-analyzer: not found); install the analyzer that analyzers[0].run calls, or fix the command',
    ],
    [
      'malformed SARIF is an error naming the producer and the problem',
      `cp '${join(FIXTURES, 'malformed/string-start-line.sarif')}' "$TOLLGATE_SARIF"`,
      'error',
      'malformed SARIF from custom: .tollgate/custom.sarif: runs[0].results[0].locations[0].physicalLocation.region.startLine: Invalid input: expected number, received string',
    ],
  ])('%s', async (_name, run, status, summary) => {
    const outcome = await h.run({ changed: { 'src/db.js': [{ start: 4, end: 4 }] }, options: analyzer(run) });
    expect(outcome).toMatchObject({ status, summary });
  });

  test('an analyzer with `paths` runs only when a changed file matches', async () => {
    const outcome = await h.run({
      changed: { 'src/db.js': [{ start: 4, end: 4 }] },
      options: analyzer('exit 3', { paths: ['**/*.go'] }),
    });
    expect(outcome).toMatchObject({
      status: 'passed',
      summary: 'no analyzer applies to the changed files (configure `static_analysis.analyzers` to add one)',
    });
  });

  test('semgrep: scans the changed files with metrics off and reports results on changed lines', async () => {
    const log = join(h.repo.home, 'semgrep.log');
    const outcome = await h.run({
      changed: { 'src/app.py': [{ start: 6, end: 6 }] },
      options: { codeql: { enabled: false }, eslint: { enabled: false } },
      env: { FAKE_SEMGREP_LOG: log, FAKE_SEMGREP_SARIF: join(FIXTURES, 'semgrep/1.95/scan.sarif') },
    });
    expect(JSON.parse(readFileSync(log, 'utf8')).argv).toEqual([
      'scan',
      '--sarif',
      `--output=${join(h.repo.root, '.tollgate/runs/r1/static_analysis/semgrep.sarif')}`,
      '--metrics=off',
      '--disable-version-check',
      '--quiet',
      '--config=p/default',
      '--',
      'src/app.py',
    ]);
    expect(outcome.status).toBe('passed'); // a warning-level result is medium, below the default failOn (high)
    expect(outcome.findings.map((finding) => [finding.severity, finding.ruleId, finding.line])).toEqual([
      ['medium', 'python.lang.security.audit.eval-detected.eval-detected', 6],
    ]);
    expect(outcome.summary).toBe('no result at high or above on the change from semgrep (1 below high)');
  });

  test('semgrep exiting with a configuration error is an error with its message', async () => {
    const outcome = await h.run({
      changed: { 'src/app.py': [{ start: 6, end: 6 }] },
      options: { codeql: { enabled: false }, eslint: { enabled: false }, semgrep: { config: ['rules.yml'] } },
      env: { FAKE_SEMGREP_SARIF: join(FIXTURES, 'semgrep/1.95/scan.sarif'), FAKE_SEMGREP_EXIT: '7' },
    });
    expect(outcome).toMatchObject({
      status: 'error',
      summary: 'semgrep: semgrep exited 7: [ERROR] invalid configuration file found (1 configs were invalid)',
    });
  });

  test("eslint: runs the project's own ESLint and maps its JSON report", async () => {
    const json = readFileSync(join(FIXTURES, 'eslint/9.x/eslint.json'), 'utf8').replaceAll('REPO_ROOT', h.repo.root);
    await h.repo.write('eslint.config.js', 'export default [];\n');
    await h.repo.write('report.json', json);
    await h.repo.write('node_modules/.bin/eslint', `#!/bin/sh\necho "$@" > args.txt\ncat report.json\nexit 1\n`);
    chmodSync(join(h.repo.root, 'node_modules/.bin/eslint'), 0o755);
    const outcome = await h.run({
      changed: { 'src/util.js': [{ start: 2, end: 2 }] },
      options: { codeql: { enabled: false }, semgrep: { enabled: false } },
    });
    expect(readFileSync(join(h.repo.root, 'args.txt'), 'utf8')).toBe(
      '--format json --no-error-on-unmatched-pattern -- src/util.js\n',
    );
    expect(outcome.status).toBe('failed');
    expect(
      outcome.findings.map((finding) => [finding.severity, finding.ruleId, finding.line, finding.sources]),
    ).toEqual([['high', 'no-eval', 2, ['eslint']]]);
  });

  test('eslint through xo: xo is found and its JSON report read; missing, it is reported as not installed', async () => {
    const json = readFileSync(join(FIXTURES, 'eslint/9.x/eslint.json'), 'utf8').replaceAll('REPO_ROOT', h.repo.root);
    await h.repo.write('package.json', JSON.stringify({ name: 'app', devDependencies: { xo: '^0.60.0' } }));
    const missing = await h.run({
      changed: { 'src/util.js': [{ start: 2, end: 2 }] },
      options: { codeql: { enabled: false }, semgrep: { enabled: false } },
    });
    expect(missing.summary).toContain('the project lints with xo, but node_modules/.bin/xo is missing');
    await h.repo.write('report.json', json);
    await h.repo.write('node_modules/.bin/xo', `#!/bin/sh\necho "$@" > args.txt\ncat report.json\nexit 1\n`);
    chmodSync(join(h.repo.root, 'node_modules/.bin/xo'), 0o755);
    const outcome = await h.run({
      changed: { 'src/util.js': [{ start: 2, end: 2 }] },
      options: { codeql: { enabled: false }, semgrep: { enabled: false } },
    });
    expect(readFileSync(join(h.repo.root, 'args.txt'), 'utf8')).toBe('--reporter=json -- src/util.js\n');
    expect(outcome.findings.map((finding) => [finding.ruleId, finding.line])).toEqual([['no-eval', 2]]);
  });

  test('with nothing installed, the result is tool_unavailable and says how to install each analyzer', async () => {
    const outcome = await h.run({ changed: { 'src/util.js': [{ start: 2, end: 2 }] }, env: { PATH: NO_TOOLS_PATH } });
    expect(outcome.status).toBe('tool_unavailable');
    expect(outcome.summary).toBe(
      'no analyzer could run: eslint: the project has no node_modules/.bin/eslint; add ESLint to the project (`npm install --save-dev eslint`) with an eslint.config.js; ' +
        'semgrep: `semgrep` is not on PATH; install Semgrep (`pipx install semgrep` or `brew install semgrep`) and put `semgrep` on PATH (docs/validators/static-analysis.md#semgrep); ' +
        'codeql: `codeql` is not on PATH; install the CodeQL CLI bundle (https://github.com/github/codeql-action/releases) and put `codeql` on PATH (docs/validators/static-analysis.md#codeql)',
    );
  });

  test('a missing analyzer is looked for once: the next run says it is missing, the advice only when PATH changes', async () => {
    const only = { codeql: { enabled: false } };
    const changed = { 'src/util.js': [{ start: 2, end: 2 }] };
    const advice =
      'semgrep: `semgrep` is not on PATH; install Semgrep (`pipx install semgrep` or `brew install semgrep`) and put `semgrep` on PATH (docs/validators/static-analysis.md#semgrep)';
    const first = await h.run({ changed, options: only, env: { PATH: NO_TOOLS_PATH } });
    expect(first.summary).toContain(advice);
    const again = await h.run({ changed, options: only, env: { PATH: NO_TOOLS_PATH } });
    expect(again.status).toBe('tool_unavailable');
    expect(again.summary).toContain('semgrep: `semgrep` is not on PATH (docs/validators/static-analysis.md#semgrep)');
    expect(again.summary).not.toContain('pipx');
    // Another PATH might hold it: looked for again, and the advice given again when it is not there either.
    const elsewhere = await h.run({
      changed,
      options: only,
      env: { PATH: `${NO_TOOLS_PATH}:/nonexistent-tollgate-bin` },
    });
    expect(elsewhere.summary).toContain(advice);
    const page = readFileSync(join(import.meta.dirname, '../../../docs/validators/static-analysis.md'), 'utf8');
    expect(page).toMatch(/^### Semgrep$/m);
    expect(page).toMatch(/^### CodeQL$/m);
  });
});

describe('diffRangeRows', () => {
  test('writes one row per changed range, whole files for scope changed_files, and a sentinel when empty', () => {
    const files = [
      {
        path: 'a.js',
        changedLines: [
          { start: 1, end: 2 },
          { start: 9, end: 9 },
        ],
      },
    ];
    expect(diffRangeRows(files, { repoRoot: '/r', scope: 'changed_lines' })).toEqual([
      ['/r/a.js', 1, 2],
      ['/r/a.js', 9, 9],
    ]);
    expect(diffRangeRows(files, { repoRoot: '/r', scope: 'changed_files' })).toEqual([['/r/a.js', 0, 0]]);
    expect(diffRangeRows([], { repoRoot: '/r', scope: 'changed_lines' })).toEqual([['', 0, 0]]);
    expect(renderDiffRangeData([['', 0, 0]])).toContain('      - ["", 0, 0]\n');
  });
});
