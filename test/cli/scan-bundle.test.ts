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
 * bin/tollgate.cjs runs `tollgate scan` (without help) from the scan's own bundle, dist/bundle/cli/scan.cjs, which
 * leaves out what a scan never runs (scripts/bundle-lib.mjs). Every scan command line must answer as the whole CLI's
 * bundle does: the same stdout, stderr and exit code, the scan's duration aside.
 */
let repo: TempRepo;
let wholeLoader: string;

const token = (seed: string) => fakeChecksumToken('ghp_', `scan-bundle-${seed}`);

beforeAll(async () => {
  repo = await createTempRepo({
    files: {
      'tollgate.config.yaml': 'secrets:\n  fixtures: report\n',
      'src/app.js': `export const token = "${token('app')}";\n`,
      'src/allowed.js': `export const known = "${token('allowed')}"; // tollgate-allow secrets/github-pat\n`,
      'test/fixtures/db.py': 'db_password = "Kestrel42!"\n',
      'docs/readme.md': '# docs\n',
    },
  });
  await repo.write('src/later.js', `const later = "${token('later')}";\n`);
  await repo.commit('later');
  await repo.write('src/staged.js', `const staged = "${token('staged')}";\n`);
  await repo.git('add', 'src/staged.js');
  await repo.write('src/untracked.env', `TOKEN=${token('untracked')}\n`);
  wholeLoader = writeWholeCliLoader(repo.home);
});
afterAll(() => repo?.cleanup());

function wholeCli(args: readonly string[]): Promise<ProcessResult> {
  return runProcess(process.execPath, [wholeLoader, ...args], {
    cwd: repo.root,
    env: { ...repo.env, TOLLGATE_DEBUG: '' },
    timeoutMs: timeBudget(60_000),
  });
}

/** What a scan prints, less its duration (`"durationMs": 12`, `in 12 ms.`). */
function answer(result: ProcessResult): { exitCode: number | null; stdout: string; stderr: string } {
  const timeless = (text: string) => text.replace(/"durationMs": \d+/g, '"durationMs": 0').replace(/ in \d+ ms\./g, '');
  return { exitCode: result.exitCode, stdout: timeless(result.stdout), stderr: timeless(result.stderr) };
}

const scanArgs = fc
  .record({
    target: fc.constantFrom(
      [],
      ['src'],
      ['src/app.js', 'docs'],
      ['missing.txt'],
      ['--all'],
      ['--staged'],
      ['--history', 'HEAD~1..HEAD'],
      ['--history', 'HEAD'],
      ['--history', 'no-such-ref..HEAD'],
      ['--baseline-audit'],
    ),
    format: fc.option(fc.constantFrom('markdown', 'json', 'sarif', 'github', 'xml'), { nil: undefined }),
    reportAllowed: fc.boolean(),
    fixtures: fc.option(fc.constantFrom('report', 'block', 'ignore', 'sometimes'), { nil: undefined }),
    maxThreads: fc.option(fc.constantFrom('1', '2', '0'), { nil: undefined }),
    odd: fc.option(fc.constantFrom('--no-such-flag', '--version', '--baseline-prune'), { nil: undefined }),
  })
  .map(({ target, format, reportAllowed, fixtures, maxThreads, odd }) => [
    'scan',
    ...target,
    ...(format ? ['--format', format] : []),
    ...(reportAllowed ? ['--report-allowed'] : []),
    ...(fixtures ? ['--fixtures', fixtures] : []),
    ...(maxThreads ? ['--max-threads', maxThreads] : []),
    ...(odd ? [odd] : []),
  ]);

describe("the scan's own bundle", () => {
  test('answers every scan command line as the whole CLI does', async () => {
    await fc.assert(
      fc.asyncProperty(scanArgs, async (args) => {
        const own = answer(await runCli(args, { cwd: repo.root, env: repo.env }));
        expect(own).toEqual(answer(await wholeCli(args)));
      }),
      { numRuns: propertyRuns(12, 40) },
    );
  });

  test('finds what the whole CLI finds, and reports a config error the same way', async () => {
    const all = ['scan', '--all', '--format', 'json', '--report-allowed'];
    const own = answer(await runCli(all, { cwd: repo.root, env: repo.env }));
    expect(own.exitCode).toBe(1);
    expect(JSON.parse(own.stdout).findings.length).toBeGreaterThanOrEqual(3);
    expect(own).toEqual(answer(await wholeCli(all)));
    await repo.write('tollgate.config.yaml', 'secrets:\n  fixtures: sometimes\n  unknownKey: 1\n');
    try {
      const broken = answer(await runCli(['scan', 'src'], { cwd: repo.root, env: repo.env }));
      expect(broken.exitCode).toBe(2);
      expect(broken.stderr).toContain('tollgate.config.yaml');
      expect(broken).toEqual(answer(await wholeCli(['scan', 'src'])));
    } finally {
      await repo.write('tollgate.config.yaml', 'secrets:\n  fixtures: report\n');
    }
  });
});
