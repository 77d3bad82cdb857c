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
    await repo.git('add', 'tollgate.config.yaml');
    await repo.git('commit', '--quiet', '-m', "config: the policy is the base commit's (docs/policy.md)");
    await repo.publish();
    // As in a fresh clone of the upstream: the check above pinned the base here, and a fetch alone moves no pinned base
    // (docs/gate.md, "The base").
    await repo.remove('.tollgate/history.json');
    const unreachable = await runCli(['advisories', 'check', 'npm:lodash@4.17.21'], { cwd: repo.root, env: repo.env });
    expect(unreachable.exitCode).toBe(1);
    const unreachableChange = await runCli(['advisories', 'check', '--all'], { cwd: repo.root, env: repo.env });
    expect(unreachableChange.exitCode).toBe(1);
    // --source and --offline-dir apply to the change-set check too (they were ignored without packages).
    const offlineFlags = await runCli(
      [
        'advisories',
        'check',
        '--all',
        '--source',
        'offline',
        '--offline-dir',
        join(process.cwd(), 'test/fixtures/advisories/offline'),
      ],
      { cwd: repo.root, env: repo.env },
    );
    expect(offlineFlags.stdout).toContain('lodash@4.17.15');
    expect(offlineFlags.exitCode).toBe(1);
  }, 60_000);
});

test('a misspelt name in validation.required is a config error naming it', async () => {
  repo = await createTempRepo({ files: { 'tollgate.config.yaml': 'validation:\n  required: [advisory]\n' } });
  const run = await runCli(['run'], { cwd: repo.root, env: repo.env });
  expect(run.exitCode).toBe(2);
  expect(run.stderr).toMatch(
    /tollgate\.config\.yaml:2:\d+ validation\.required\[0\]: unknown validator "advisory"; expected one of /,
  );
});

describe('manifests without a lockfile', () => {
  const offline = `advisories:\n  sources: [offline]\n  offline: { dir: ${JSON.stringify(join(process.cwd(), 'test/fixtures/advisories/offline'))} }\nvalidation:\n  static_analysis: { enabled: false }\n`;
  const packageJson = (deps: Record<string, string>) =>
    `${JSON.stringify({ name: 'app', dependencies: deps }, null, 2)}\n`;

  test('an exact version added to package.json is checked, a range is checked for every version it admits, a tag cannot pass', async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': offline, 'package.json': packageJson({}) } });
    await repo.write('package.json', packageJson({ lodash: '4.17.15' }));
    const pinned = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    const advisories = JSON.parse(pinned.stdout).tools.find((tool: { name: string }) => tool.name === 'advisories');
    expect(advisories.status).toBe('failed');
    expect(advisories.findings.length).toBeGreaterThan(0);
    expect(pinned.exitCode).toBe(1);

    // A range that admits vulnerable versions is reported as such.
    await repo.write('package.json', packageJson({ lodash: '^4.17.0' }));
    const ranged = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    const rangeResult = JSON.parse(ranged.stdout).tools.find((tool: { name: string }) => tool.name === 'advisories');
    expect(rangeResult.status).toBe('failed');
    expect(rangeResult.findings[0].title).toMatch(
      /^lodash@\^4\.17\.0 \(npm\): the range admits versions with \d+ known vulnerabilit\w+; require 4\.17\.\d+ or later, or commit a lockfile$/,
    );
    // Each advisory names the fixed version it has, never "no fixed version yet" next to "pin a fixed version".
    expect(rangeResult.findings[0].body).toMatch(/; fixed in 4\.17\.\d+\./);
    expect(rangeResult.findings[0].body).not.toContain('no fixed version yet');
    expect(ranged.exitCode).toBe(1);

    // A range past every fix admits none.
    await repo.write('package.json', packageJson({ lodash: '>=4.17.21 <5' }));
    const safe = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(JSON.parse(safe.stdout).tools.find((tool: { name: string }) => tool.name === 'advisories').status).toBe(
      'passed',
    );

    // A spec that is not a range (a dist-tag) cannot be checked: never a pass.
    await repo.write('package.json', packageJson({ lodash: 'latest' }));
    const tagged = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    const tagResult = JSON.parse(tagged.stdout).tools.find((tool: { name: string }) => tool.name === 'advisories');
    expect(tagResult.status).toBe('incomplete');
    expect(tagResult.summary).toContain('lodash latest (package.json)');
    expect(tagResult.summary).toContain('Commit a lockfile');
  }, 60_000);

  test('with a lockfile beside it, the lockfile decides and the manifest is not read', async () => {
    repo = await createTempRepo({
      files: { 'tollgate.config.yaml': offline, 'package.json': packageJson({}), 'package-lock.json': lock({}) },
    });
    await repo.write('package.json', packageJson({ lodash: '^4.17.21' }));
    await repo.write('package-lock.json', lock({ lodash: '4.17.21' }));
    const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    const advisories = JSON.parse(run.stdout).tools.find((tool: { name: string }) => tool.name === 'advisories');
    expect(advisories.status).toBe('passed');
  }, 60_000);
});
