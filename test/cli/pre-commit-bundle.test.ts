import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ProcessResult, runProcess } from '../../src/core/process.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { propertyRuns } from '../support/property-runs.js';
import { runCli } from '../support/run-cli.js';
import { timeBudget } from '../support/time-budget.js';
import { writeWholeCliLoader } from '../support/whole-cli-loader.js';

/**
 * bin/tollgate.cjs runs `tollgate hook pre-commit` (without help) from the scan's own bundle,
 * dist/bundle/cli/scan.cjs, as it runs `tollgate scan`: git runs it before every commit, and the whole CLI's bundle
 * cost each one its read and start (docs/benchmarks.md, "`tollgate hook pre-commit`", session 30). The hook must answer
 * as the whole CLI's bundle does: the same exit code, stdout and stderr (blocked, passed, redacted, a broken config, a
 * bad command line), and the same staged result.
 */
let repo: TempRepo;
let wholeLoader: string;
let initial: string;

const token = (seed: string) => fakeChecksumToken('ghp_', `pre-commit-bundle-${seed}`);

/** What a commit may stage: a clean file, a secret, a test fixture, a secret whose allow marker the commit adds. */
const STAGEABLE: Record<string, string> = {
  'src/clean.js': 'export const greeting = "hello";\n',
  'src/app.env': `A=1\nTOKEN=${token('app')}\n`,
  'test/fixtures/db.py': 'db_password = "Kestrel42!"\n',
  'src/allowed.js': `export const known = "${token('allowed')}"; // tollgate-allow secrets/github-pat\n`,
};

const CONFIGS = [
  undefined,
  'secrets:\n  redactAfterAttempts: 2\npermissions:\n  writeFiles: allow\n',
  'secrets:\n  redactAfterAttempts: 1\n',
  'secrets:\n  fixtures: block\n',
  'secrets:\n  fixtures: sometimes\n  unknownKey: 1\n',
];

beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# pre-commit\n', 'src/clean.js': 'export {};\n' } });
  initial = (await repo.git('rev-parse', 'HEAD')).trim();
  wholeLoader = writeWholeCliLoader(repo.home);
});
afterAll(() => repo?.cleanup());

interface Case {
  config: string | undefined;
  staged: string[];
  /** Runs before the one compared: blocked attempts count, and redaction comes after N of them. */
  before: number;
  args: readonly string[];
}

/**
 * The repository as the case has it: the first commit, the attempts forgotten, the case's config committed (a commit
 * cannot loosen its own policy: docs/policy.md) and its files staged.
 */
async function prepare(c: Case): Promise<void> {
  await repo.git('reset', '-q', '--hard', initial);
  await repo.git('clean', '-fdxq');
  await repo.remove('.git/tollgate');
  if (c.config !== undefined) {
    await repo.write('tollgate.config.yaml', c.config);
    await repo.commit('config');
  }
  for (const path of c.staged) await repo.write(path, STAGEABLE[path]!);
  if (c.staged.length > 0) await repo.git('add', '--', ...c.staged);
}

/** The last run's answer, its redaction backup's time stamp aside, and what the index then holds. */
async function answer(c: Case, run: (args: readonly string[]) => Promise<ProcessResult>) {
  await prepare(c);
  let result: ProcessResult | undefined;
  for (let index = 0; index <= c.before; index++) result = await run(c.args);
  const stamped = (text: string) => text.replace(/redacted\/[0-9TZ-]+/g, 'redacted/<time>');
  return {
    exitCode: result!.exitCode,
    stdout: stamped(result!.stdout),
    stderr: stamped(result!.stderr),
    index: await repo.git('diff', '--cached', '--no-color'),
  };
}

const bin = (args: readonly string[]) => runCli(args, { cwd: repo.root, env: repo.env });
const whole = (args: readonly string[]) =>
  runProcess(process.execPath, [wholeLoader, ...args], {
    cwd: repo.root,
    env: { ...repo.env, TOLLGATE_DEBUG: '' },
    timeoutMs: timeBudget(60_000),
  });

const cases = fc.record({
  config: fc.constantFrom(...CONFIGS),
  staged: fc.subarray(Object.keys(STAGEABLE)),
  before: fc.integer({ min: 0, max: 1 }),
  args: fc.constantFrom(
    ['hook', 'pre-commit'],
    ['hook', 'pre-commit'],
    ['hook', 'pre-commit', '--no-such-flag'],
    ['hook', 'pre-commit', 'extra'],
    ['hook', 'pre-commit', '--version'],
  ),
});

describe("`hook pre-commit` from the scan's own bundle", () => {
  test('answers every staged change and command line as the whole CLI does', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const own = await answer(c, bin);
        expect(own).toEqual(await answer(c, whole));
      }),
      { numRuns: propertyRuns(6, 30) },
    );
  });

  test('blocks, then redacts after the configured attempts, as the whole CLI does', async () => {
    const c: Case = {
      config: CONFIGS[1],
      staged: ['src/app.env', 'src/clean.js'],
      before: 0,
      args: ['hook', 'pre-commit'],
    };
    const blocked = await answer(c, bin);
    expect(blocked.exitCode).toBe(1);
    expect(blocked.stderr).toContain('tollgate: commit blocked: 1 secret in staged changes (attempt 1):');
    expect(blocked).toEqual(await answer(c, whole));
    const redacted = await answer({ ...c, before: 1 }, bin);
    expect(redacted.exitCode, redacted.stderr).toBe(0);
    expect(redacted.index).toContain('TOKEN=<REDACTED:github-pat>');
    expect(redacted).toEqual(await answer({ ...c, before: 1 }, whole));
  });

  test('reads a commit of 20 staged files with a git per 16 of them, not one a file', async () => {
    // A git per staged file cost each commit about 6 ms of CPU a file, most of it Node's own spawn (docs/benchmarks.md,
    // "`tollgate hook pre-commit`", session 30). A git on PATH that notes each subcommand, then runs the real one.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const fakes = join(repo.home, 'counting-git');
    const log = join(repo.home, 'git-calls.log');
    mkdirSync(fakes, { recursive: true });
    writeFileSync(
      join(fakes, 'git'),
      `#!/bin/sh\necho "$*" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(realGit)} "$@"\n`,
    );
    chmodSync(join(fakes, 'git'), 0o755);
    await prepare({ config: undefined, staged: [], before: 0, args: [] });
    const staged = Array.from({ length: 20 }, (_, index) => `src/file-${index}.js`);
    for (const path of staged) await repo.write(path, `export const value${path.length} = "${path}";\n`);
    await repo.git('add', '--', ...staged);
    writeFileSync(log, '');
    const result = await runCli(['hook', 'pre-commit'], {
      cwd: repo.root,
      env: { ...repo.env, PATH: `${fakes}:${repo.env.PATH ?? process.env.PATH}` },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const reads = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('cat-file'));
    expect(reads).toEqual(['cat-file --batch', 'cat-file --batch']);
  });

  test('a clean commit after a clean one leaves the cleared attempts file alone; after a blocked one it clears it', async () => {
    // The clearing write is durable (an fsync of the file and of its folder), which each clean commit paid for.
    const attempts = join(repo.root, '.git/tollgate/pre-commit-attempts.json');
    const cleared = '{"findingsKey":"","count":0}';
    const commit = async (expected: number) => {
      const result = await runCli(['hook', 'pre-commit'], { cwd: repo.root, env: repo.env });
      expect(result.exitCode, result.stderr).toBe(expected);
    };
    await prepare({ config: undefined, staged: ['src/clean.js'], before: 0, args: [] });
    await commit(0);
    const first = statSync(attempts);
    expect(readFileSync(attempts, 'utf8')).toBe(cleared);
    await commit(0);
    expect(statSync(attempts).ino).toBe(first.ino);
    expect(statSync(attempts).mtimeMs).toBe(first.mtimeMs);
    await repo.write('src/app.env', STAGEABLE['src/app.env']!);
    await repo.git('add', 'src/app.env');
    await commit(1);
    expect(JSON.parse(readFileSync(attempts, 'utf8'))).toMatchObject({ count: 1 });
    await repo.git('rm', '-q', '--cached', 'src/app.env');
    await commit(0);
    expect(readFileSync(attempts, 'utf8')).toBe(cleared);
  });

  test('blocks a secret in a staged file whose name starts with a digit and a colon', async () => {
    // `:1:app.env` names stage 1 of `app.env` to git: such a file was skipped as unreadable, and its secret committed.
    await prepare({ config: undefined, staged: [], before: 0, args: [] });
    await repo.write('1:app.env', STAGEABLE['src/app.env']!);
    await repo.git('add', '--', '1:app.env');
    const result = await runCli(['hook', 'pre-commit'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toContain('1:app.env:2:7 secrets/github-pat');
  });
});
