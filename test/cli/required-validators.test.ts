import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * "Could not check" can fail: advisories and secrets are required by default, so an advisory database that cannot be
 * reached fails the run and keeps the stop hook closed; `--strict` makes every enabled validator required.
 */
let repo: TempRepo;
afterEach(() => repo.cleanup());

const UNREACHABLE = 'http://127.0.0.1:9';
const lock = (versions: Record<string, string>) =>
  `${JSON.stringify(
    {
      name: 'app',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', dependencies: Object.fromEntries(Object.keys(versions).map((name) => [name, '*'])) },
        ...Object.fromEntries(Object.entries(versions).map(([name, version]) => [`node_modules/${name}`, { version }])),
      },
    },
    null,
    2,
  )}\n`;

describe('required validators', () => {
  test('an unreachable advisory database fails the run (advisories is required) and the stop hook blocks', async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': `advisories:\n  osv: { url: "${UNREACHABLE}" }\n  timeout: 2s\nvalidation:\n  static_analysis: { enabled: false }\n  code_review: { enabled: false }\n`,
        'package-lock.json': lock({}),
      },
    });
    await repo.write('package-lock.json', lock({ lodash: '4.17.15' }));
    const run = await runCli(['run'], { cwd: repo.root, env: repo.env });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('UNAVAILABLE (required: fails the run)');
    expect(run.stdout).not.toContain('may be declared done');
    const payload = readFileSync(new URL('../fixtures/hooks/claude/stop.json', import.meta.url), 'utf8').replaceAll(
      '__REPO__',
      repo.root,
    );
    const stop = await runProcess(process.execPath, [CLI_PATH, 'hook', 'stop', '--agent', 'claude'], {
      cwd: repo.root,
      env: repo.env,
      input: payload,
    });
    expect(JSON.parse(stop.stdout).decision).toBe('block');
  }, 60_000);

  test('not required: the same run passes with a warning; --strict makes it fail', async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': `advisories:\n  osv: { url: "${UNREACHABLE}" }\n  timeout: 2s\nvalidation:\n  required: [secrets]\n  static_analysis: { enabled: false }\n`,
        'package-lock.json': lock({}),
      },
    });
    await repo.write('package-lock.json', lock({ lodash: '4.17.15' }));
    const lenient = await runCli(['run'], { cwd: repo.root, env: repo.env });
    expect(lenient.exitCode).toBe(0);
    expect(lenient.stdout).toContain('unavailable (warning)');
    expect(lenient.stdout).toMatch(/Off \(config .*\): .*code_review/);
    const strict = await runCli(['run', '--strict'], { cwd: repo.root, env: repo.env });
    expect(strict.exitCode).toBe(1);
  }, 60_000);

  test('advisories check: no reachable source exits 1; --all on a clean tree checks every locked dependency', async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': `advisories:\n  sources: [offline]\n  offline: { dir: ${JSON.stringify(join(process.cwd(), 'test/fixtures/advisories/offline'))} }\n`,
        'package-lock.json': lock({ lodash: '4.17.15' }),
      },
    });
    const all = await runCli(['advisories', 'check', '--all'], { cwd: repo.root, env: repo.env });
    expect(all.stdout).not.toContain('skipped (no changes)');
    expect(all.exitCode).toBe(1);
    await repo.write('tollgate.config.yaml', `advisories:\n  osv: { url: "${UNREACHABLE}" }\n  timeout: 2s\n`);
    const unreachable = await runCli(['advisories', 'check', 'npm:lodash@4.17.21'], { cwd: repo.root, env: repo.env });
    expect(unreachable.exitCode).toBe(1);
    const unreachableChange = await runCli(['advisories', 'check', '--all'], { cwd: repo.root, env: repo.env });
    expect(unreachableChange.exitCode).toBe(1);
  }, 60_000);
});
