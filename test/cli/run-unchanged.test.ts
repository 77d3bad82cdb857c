import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

// The no-change run's fast path (src/core/run/unchanged-run.ts, src/cli/run-fast.ts) through the built CLI: a plain
// `tollgate run` on a tree unchanged since a passing no-change run answers from that run's saved report. Every case
// that could hide a change from `git status`, or move the base, must take the full path instead.
const CONFIG = 'output:\n  keepRuns: 3\nchecks:\n  - name: ok\n    run: "true"\n';
const AWS_KEY = 'AKIAQYLPMN5HFIQR7XYA';

describe('tollgate run on an unchanged tree (built CLI)', () => {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'app.txt': 'hello\n' } });
    await repo.publish();
    // Past git's racy-clean window: a stamp taken while a file it reads is seconds old is never saved.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(repo.root, 'tollgate.config.yaml'), past, past);
    utimesSync(join(repo.root, 'app.txt'), past, past);
  });
  afterEach(() => repo.cleanup());

  const run = (env: NodeJS.ProcessEnv = {}) => runCli(['run'], { cwd: repo.root, env: { ...repo.env, ...env } });
  const runIdOf = (stdout: string) => /run `([^`]+)`/.exec(stdout)?.[1] ?? '';
  const runStart = (runId: string) => {
    const lines = readFileSync(join(repo.root, '.tollgate/runs', runId, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n');
    return JSON.parse(lines[0]!) as { type: string; data: { unchangedSince?: string } };
  };
  /** Stdout with what differs between two runs of the same answer: the run id and the timings. */
  const comparable = (stdout: string) => stdout.replace(/run `[^`]+`/, 'run `ID`').replace(/\d+ms/g, 'Nms');

  test('repeats the last no-change pass as a run of its own: report, events, telemetry, log', async () => {
    // The first plain run finds nothing changed and leaves a note that a stamp is worth taking; the second takes it
    // and saves it with its report; the third is answered from that.
    expect((await run()).exitCode).toBe(0);
    const first = await run();
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain('0 changed file(s)');
    const firstId = runIdOf(first.stdout);
    expect(runStart(firstId).data.unchangedSince).toBeUndefined();

    const second = await run();
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toBe('');
    const secondId = runIdOf(second.stdout);
    expect(secondId).not.toBe(firstId);
    expect(comparable(second.stdout)).toBe(comparable(first.stdout));
    // Its own record, naming the run it repeats.
    const events = readFileSync(join(repo.root, '.tollgate/runs', secondId, 'events.jsonl'), 'utf8');
    expect(
      events
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['run.start', 'run.end']);
    expect(runStart(secondId).data.unchangedSince).toBe(firstId);
    const telemetry = readFileSync(join(repo.root, '.tollgate/runs', secondId, 'telemetry.jsonl'), 'utf8');
    expect(
      telemetry
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).skipReason),
    ).toEqual(['no_changes', 'no_changes', 'no_changes', 'no_changes']);
    // The readers of the full path read it: `log` (stored report) and `stats` (telemetry).
    const log = await runCli(['log', secondId, '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(log.exitCode).toBe(0);
    expect(JSON.parse(log.stdout)).toMatchObject({
      runId: secondId,
      start: { unchangedSince: firstId },
      end: { verdict: 'passed' },
    });
    const text = await runCli(['log', secondId], { cwd: repo.root, env: repo.env });
    expect(text.stdout).toContain(`nothing had changed since run ${firstId}`);
    // The page draws the stored report, as for any run.
    const page = await runCli(['log', secondId, '--format', 'html'], { cwd: repo.root, env: repo.env });
    expect(page.exitCode).toBe(0);
    expect(page.stdout).toContain(secondId);
    const listed = await runCli(['log'], { cwd: repo.root, env: repo.env });
    expect(listed.stdout).toContain(secondId);
    const stats = await runCli(['stats'], { cwd: repo.root, env: repo.env });
    expect(stats.exitCode).toBe(0);
  });

  test('an edit, a new file, a moved ref or another setting takes the full path', async () => {
    expect((await run()).exitCode).toBe(0);
    expect((await run()).exitCode).toBe(0);
    const repeated = await run();
    expect(runStart(runIdOf(repeated.stdout)).data.unchangedSince).toBeDefined();

    await repo.write('notes.txt', `aws_access_key_id = ${AWS_KEY}\n`);
    const added = await run();
    expect(added.exitCode).toBe(1);
    expect(added.stdout).toContain('1 changed file(s)');
    // A tree that changed drops the saved report: later runs of a changing tree take no stamp at all.
    expect(existsSync(join(repo.root, '.tollgate/run-cache.json'))).toBe(false);
    // The record the fast path wrote ahead while git took the stamp is gone with its answer.
    expect(readdirSync(join(repo.root, '.tollgate/runs')).filter((name) => name.startsWith('.'))).toEqual([]);
    await repo.remove('notes.txt');

    await repo.write('app.txt', 'hello again\n');
    const edited = await run();
    expect(edited.stdout).toContain('1 changed file(s)');
    await repo.write('app.txt', 'hello\n');
    utimesSync(join(repo.root, 'app.txt'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));

    // A new ref may move the base: never answered from a report made before it.
    await repo.git('branch', 'elsewhere');
    const afterRef = await run();
    expect(runStart(runIdOf(afterRef.stdout)).data.unchangedSince).toBeUndefined();

    const otherSetting = await run({ TOLLGATE_USE_CHECKS: '0' });
    expect(runStart(runIdOf(otherSetting.stdout)).data.unchangedSince).toBeUndefined();
  });

  test('an edit git status is told to skip (assume-unchanged, skip-worktree) is found, never answered from the cache', async () => {
    expect((await run()).exitCode).toBe(0);
    expect((await run()).exitCode).toBe(0);
    expect(runStart(runIdOf((await run()).stdout)).data.unchangedSince).toBeDefined();
    for (const flag of ['--assume-unchanged', '--skip-worktree']) {
      await repo.git('update-index', flag, 'app.txt');
      // The flag alone changes nothing on disk: the full path finds no change and passes.
      expect((await run()).exitCode).toBe(0);
      writeFileSync(join(repo.root, 'app.txt'), `key = ${AWS_KEY}\n`);
      utimesSync(join(repo.root, 'app.txt'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      const hidden = await run();
      expect(hidden.exitCode).toBe(1);
      expect(hidden.stdout).toContain('1 changed file(s)');
      expect(runStart(runIdOf(hidden.stdout)).data.unchangedSince).toBeUndefined();
      writeFileSync(join(repo.root, 'app.txt'), 'hello\n');
      await repo.git('update-index', flag.replace('--', '--no-'), 'app.txt');
    }
  });

  test('a clean filter or a file system monitor that hides an edit is not trusted', async () => {
    expect((await run()).exitCode).toBe(0);
    // A filter that turns any text into the committed one: for a same-size edit, status compares the filtered text
    // and sees nothing; the full path reads the disk.
    const secretLine = `key = ${AWS_KEY}\n`;
    const committed = `${'p'.repeat(secretLine.length - 1)}\n`;
    await repo.write('same.txt', committed);
    await repo.commit('same');
    await repo.publish();
    await repo.git('config', 'filter.same.clean', `printf '${committed.trimEnd()}\\n'`);
    await mkdir(join(repo.root, '.git/info'), { recursive: true });
    writeFileSync(join(repo.root, '.git/info/attributes'), 'same.txt filter=same\n');
    const backdate = (path: string) =>
      utimesSync(join(repo.root, path), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    backdate('same.txt');
    expect((await run()).exitCode).toBe(0);
    expect((await run()).exitCode).toBe(0);
    writeFileSync(join(repo.root, 'same.txt'), secretLine);
    backdate('same.txt');
    expect(await repo.git('status', '--porcelain')).toBe('');
    const filtered = await run();
    expect(filtered.exitCode).toBe(1);
    expect(runStart(runIdOf(filtered.stdout)).data.unchangedSince).toBeUndefined();
    await repo.git('config', '--unset', 'filter.same.clean');
    writeFileSync(join(repo.root, 'same.txt'), committed);

    // A monitor hook that always answers "nothing changed".
    const hook = join(repo.root, '.git/fsmonitor-nothing');
    writeFileSync(hook, '#!/bin/sh\nprintf "0\\0"\n', { mode: 0o755 });
    await repo.git('config', 'core.fsmonitor', hook);
    utimesSync(join(repo.root, 'app.txt'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect((await run()).exitCode).toBe(0);
    writeFileSync(join(repo.root, 'app.txt'), `key = ${AWS_KEY}\n`);
    const monitored = await run();
    expect(monitored.exitCode).toBe(1);
    expect(monitored.stdout).toContain('1 changed file(s)');
  });

  test('a forged cache, a busy lock or a killed run’s leftovers send the run down the full path', async () => {
    expect((await run()).exitCode).toBe(0);
    expect((await run()).exitCode).toBe(0);
    const cachePath = join(repo.root, '.tollgate/run-cache.json');
    const cache = JSON.parse(readFileSync(cachePath, 'utf8')) as Record<string, unknown>;
    writeFileSync(cachePath, JSON.stringify({ ...cache, keepRuns: 1000 }));
    const forged = await run();
    expect(forged.exitCode).toBe(0);
    expect(runStart(runIdOf(forged.stdout)).data.unchangedSince).toBeUndefined();
    // The full path saved a fresh, signed cache: the next run repeats again.
    expect(runStart(runIdOf((await run()).stdout)).data.unchangedSince).toBeDefined();

    // A record written ahead by a fast path that was killed before it could keep or drop it: the next prune removes it.
    await mkdir(join(repo.root, '.tollgate/runs/.pending-20260101T000000Z-abc123'), { recursive: true });
    expect(runStart(runIdOf((await run()).stdout)).data.unchangedSince).toBeDefined();
    expect(existsSync(join(repo.root, '.tollgate/runs/.pending-20260101T000000Z-abc123'))).toBe(false);

    // A killed run's ledger of child processes (a pid that is gone): the full path reaps it first.
    await mkdir(join(repo.root, '.tollgate/children'), { recursive: true });
    writeFileSync(join(repo.root, '.tollgate/children/999999.json'), JSON.stringify({ owner: 999999, groups: [] }));
    const leftovers = await run();
    expect(leftovers.exitCode).toBe(0);
    expect(runStart(runIdOf(leftovers.stdout)).data.unchangedSince).toBeUndefined();

    // `.tollgate` swapped for a symlink to a copy holding a valid cache: never followed; the full path refuses it.
    renameSync(join(repo.root, '.tollgate'), join(repo.root, '..', `${basename(repo.root)}-state`));
    symlinkSync(join(repo.root, '..', `${basename(repo.root)}-state`), join(repo.root, '.tollgate'));
    try {
      const linked = await run();
      expect(linked.exitCode).toBe(3);
      expect(linked.stderr).toContain('found a symlink');
    } finally {
      rmSync(join(repo.root, '.tollgate'));
      rmSync(join(repo.root, '..', `${basename(repo.root)}-state`), { recursive: true, force: true });
    }
  });

  test('keeps output.keepRuns: repeated runs are pruned like full ones', async () => {
    for (let index = 0; index < 7; index += 1) expect((await run()).exitCode).toBe(0);
    const runs = readdirSync(join(repo.root, '.tollgate/runs')).filter((name) => !name.startsWith('.'));
    // The newest three and the first, full run the state stands on.
    expect(runs.length).toBeLessThanOrEqual(4);
    expect(existsSync(join(repo.root, '.tollgate/run-cache.json'))).toBe(true);
  });
});
