import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { REPORT_FORMATS } from '../../src/report/index.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

const CONFIG = `checks:
  - name: unit
    run: node check.mjs
  - name: docs
    run: "false"
    paths: ["docs/**"]
`;

describe('tollgate run (built CLI, real repository)', () => {
  let repo: TempRepo;
  /** The config is policy (docs/policy.md): an edit applies once it is in the base, here a commit on `main`. */
  async function commitConfig(text: string): Promise<void> {
    await repo.write('tollgate.config.yaml', text);
    await repo.git('add', 'tollgate.config.yaml');
    await repo.git('commit', '--quiet', '-m', 'config');
  }
  beforeEach(async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': CONFIG,
        'check.mjs':
          "import { readFileSync } from 'node:fs';\nif (readFileSync('value.txt', 'utf8').trim() !== 'good') { console.error('value is not good'); process.exit(1); }\n",
        'value.txt': 'good\n',
      },
    });
  });
  afterEach(() => repo.cleanup());

  const run = (...args: string[]) => runCli(['run', ...args], { cwd: repo.root, env: repo.env });

  test('no changes: every validator skips and the gate passes', async () => {
    const result = await run();
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('# tollgate: PASSED');
    expect(result.stdout).toContain('No changes detected against the base. Skipping validation.');
  });

  test('a failing check fails the gate with exit 1; fixing it passes; rerunning unchanged skips', async () => {
    await repo.write('value.txt', 'bad\n');
    const failed = await run();
    expect(failed.exitCode).toBe(1);
    expect(failed.stdout).toContain('check "unit" failed (exit 1)');
    expect(failed.stdout).toContain('value is not good');

    await repo.write('value.txt', 'good\n');
    await repo.write('extra.txt', 'untracked file\n');
    const passed = await run();
    expect(passed.exitCode).toBe(0);
    expect(passed.stdout).toContain('1 check(s) passed (1 skipped: no changed file matches their `paths`)');

    const again = await run();
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/skipped \(no changes\)[\s\S]*no changes since this validator last passed/);
  });

  test('stdout holds only the report; progress goes to stderr', async () => {
    await repo.write('value.txt', 'good\n\n');
    const result = await run('--format', 'json');
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      verdict: 'passed',
      changedFiles: 1,
      files: [{ path: 'value.txt', status: 'modified' }],
    });
    expect(report.tools.find((tool: { name: string }) => tool.name === 'checks')).toMatchObject({ status: 'passed' });
    expect(result.stderr).toContain('tollgate: checks: unit: passed');
  });

  test('--progress prints a heartbeat while a check runs long, with its last output line; off without it', async () => {
    await commitConfig('checks:\n  - name: slow\n    run: "echo compiling; sleep 1"\n');
    await repo.write('value.txt', 'changed\n');
    const env = { ...repo.env, TOLLGATE_HEARTBEAT_MS: '200' };
    const withFlag = await runCli(['run', '--progress'], { cwd: repo.root, env });
    expect(withFlag.exitCode).toBe(0);
    expect(withFlag.stderr).toMatch(
      /tollgate: checks: still running `echo compiling; sleep 1` after \ds; last output: compiling/,
    );
    await repo.write('value.txt', 'changed again\n');
    const without = await runCli(['run'], { cwd: repo.root, env });
    expect(without.exitCode).toBe(0);
    expect(without.stderr).not.toContain('still running');
  });

  test('--output writes the report atomically to a file and --format sarif is valid JSON', async () => {
    await repo.write('value.txt', 'bad\n');
    const result = await run('--format', 'sarif', '--output', 'out/report.sarif');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    const sarif = JSON.parse(readFileSync(join(repo.root, 'out/report.sarif'), 'utf8'));
    // A failed check is an annotation, not a code scanning alert (unless output.sarifChecks).
    expect(sarif.runs[0].results).toEqual([]);
    expect(sarif.runs[0].invocations[0].properties.validators).toContainEqual(
      expect.objectContaining({ name: 'checks', status: 'failed' }),
    );
  });

  test.each([
    [['--format', 'xml'], `tollgate: --format: expected one of ${REPORT_FORMATS.join(', ')}; got "xml"\n`],
    [
      ['--base', 'no-such-rev'],
      'tollgate: --base: git does not know revision "no-such-rev" (expected a commit, branch or tag)\n',
    ],
    [['--only', 'nope'], 'tollgate: --only: unknown validator "nope"; expected one of '],
  ])('bad usage %j exits 2 with one line', async (args, message) => {
    const result = await run(...args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.startsWith(message)).toBe(true);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  test('an invalid config exits 2 naming file, line, column and field', async () => {
    await repo.write('tollgate.config.yaml', 'checks:\n  - name: unit\n    run: "true"\n    timeout: fast\n');
    const result = await run();
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      'tollgate: tollgate.config.yaml:4:14 checks[0].timeout: expected a duration like "90s", got "fast"\n',
    );
  });

  test('outside a git repository exits 2 with a clear message', async () => {
    const result = await runCli(['run'], { cwd: repo.home, env: repo.env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^tollgate: .* is not inside a git work tree/);
  });

  test('a second run waits on the lock, or fails at once with --no-wait', async () => {
    // The check holds the first run (and its lock) until the test has seen the second one refused, 30 s at most.
    const release = join(repo.home, 'release');
    await commitConfig(
      `checks:\n  - name: slow\n    run: 'i=0; while [ ! -f "${release}" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done'\n`,
    );
    await repo.write('value.txt', 'changed\n');
    const first = run();
    // Give the first run time to take the lock.
    const lockPath = join(repo.root, '.tollgate', 'run.lock');
    for (let waited = 0; waited < 5000 && !existsSync(lockPath); waited += 50)
      await new Promise((done) => setTimeout(done, 50));
    const second = await run('--no-wait');
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toMatch(
      /^tollgate: another tollgate run \(pid \d+, started .*\) holds \.tollgate\/run\.lock/,
    );
    writeFileSync(release, '');
    expect((await first).exitCode).toBe(0);
  });

  test('a run that waited on the lock judges the tree it got, not the one it saw before the wait', async () => {
    // The snapshot is begun while the config is read; a run that has to wait drops it and takes the tree again.
    // The first run's check holds the lock until the test releases it, once the second run says it waits: no sleeps.
    const release = join(repo.home, 'release-the-check');
    await commitConfig(`checks:\n  - name: slow\n    run: "while [ ! -e '${release}' ]; do sleep 0.05; done"\n`);
    await repo.write('value.txt', 'changed\n');
    const first = run();
    const lockPath = join(repo.root, '.tollgate', 'run.lock');
    for (let waited = 0; waited < 10_000 && !existsSync(lockPath); waited += 50)
      await new Promise((done) => setTimeout(done, 50));
    let stderr = '';
    let saidWaiting = () => {};
    const waiting = new Promise<void>((resolve) => (saidWaiting = resolve));
    const second = runProcess(process.execPath, [CLI_PATH, 'run', '--format', 'json'], {
      cwd: repo.root,
      env: { ...repo.env, TOLLGATE_DEBUG: '' },
      timeoutMs: 60_000,
      onOutput: (stream, chunk) => {
        if (stream !== 'stderr') return;
        stderr += chunk.toString();
        if (stderr.includes('lock: waiting')) saidWaiting();
      },
    });
    await Promise.race([waiting, second]);
    await repo.write('late.txt', 'written while the second run waited\n');
    writeFileSync(release, '');
    await first;
    const result = await second;
    // It did wait: the snapshot it began before then was dropped, and the one it judged was taken after.
    expect(result.stderr).toMatch(/^tollgate: lock: waiting for another tollgate run/);
    const report = JSON.parse(result.stdout) as { verdict: string; files: Array<{ path: string }> };
    expect(report.files.map((file) => file.path)).toEqual(['late.txt', 'value.txt']);
    expect(report.verdict).toBe('passed');
  });

  test('a run killed mid-way leaves a readable log with the unfinished call flagged, and no orphaned check', async () => {
    const pidFile = join(repo.root, 'check.pid');
    await commitConfig(`checks:\n  - name: hang\n    run: "echo $$ > '${pidFile}'; sleep 60"\n`);
    await repo.write('value.txt', 'changed\n');
    const child = runProcess(process.execPath, [CLI_PATH, 'run'], { cwd: repo.root, env: repo.env, timeoutMs: 30_000 });
    for (let waited = 0; waited < 10_000 && !existsSync(pidFile); waited += 50)
      await new Promise((done) => setTimeout(done, 50));
    const checkPid = Number(readFileSync(pidFile, 'utf8'));
    // SIGTERM: tollgate kills its children's process groups on the way out.
    // This run's own pid, from its lock: `pgrep -f` would also match tollgate runs of other test files.
    const tollgatePid = Number(JSON.parse(readFileSync(join(repo.root, '.tollgate', 'run.lock'), 'utf8')).pid);
    process.kill(tollgatePid, 'SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(143);
    await new Promise((done) => setTimeout(done, 200));
    const stat = existsSync(`/proc/${checkPid}/stat`) ? readFileSync(`/proc/${checkPid}/stat`, 'utf8') : '';
    expect(stat === '' || stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z').toBe(true);

    const log = await runCli(['log'], { cwd: repo.root, env: repo.env });
    expect(log.exitCode).toBe(0);
    // Each call the signal cut short is listed as interrupted, with the signal, never as passed.
    expect(log.stdout).toMatch(/checks +interrupted .*\n +interrupted by SIGTERM/);
    // The next run is not blocked by the dead run's lock.
    await repo.write('tollgate.config.yaml', CONFIG);
    await repo.commit('config back');
    expect((await run('--no-wait')).exitCode).toBe(0);
  });
});
