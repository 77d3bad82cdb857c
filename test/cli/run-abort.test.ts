import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { assertBuilt, CLI_PATH, runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp-home.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({
    files: {
      'tollgate.config.yaml':
        'checks:\n  - name: slow\n    run: node -e "console.log(\'started\'); setTimeout(() => {}, 60000)"\n',
      'a.txt': 'one\n',
    },
  });
});
afterEach(() => repo.cleanup());

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 143 } as const;

test.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
  'a run interrupted by %s records an abort event that tollgate log shows, and fails the call it stopped',
  async (signal) => {
    assertBuilt();
    await repo.write('a.txt', 'two\n');
    const child = spawn(process.execPath, [CLI_PATH, 'run', '--progress'], {
      cwd: repo.root,
      env: { ...repo.env, TOLLGATE_DEBUG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until the check runs, then interrupt the whole run.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the check never started')), 30_000);
      child.stderr.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('slow')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill(signal);
    expect(await exited).toBe(EXIT_CODES[signal]);

    const log = await runCli(['log'], { cwd: repo.root, env: repo.env });
    expect(log.stdout).toMatch(
      new RegExp(`interrupted by ${signal} after \\S+: the run was aborted and its checks stopped`),
    );
    expect(log.stdout).toMatch(new RegExp(`checks\\s+interrupted .*\\n\\s+interrupted by ${signal}`));
    const json = await runCli(['log', '--json'], { cwd: repo.root, env: repo.env });
    expect(JSON.parse(json.stdout).abort).toMatchObject({ signal });

    const runsDir = join(repo.root, '.tollgate', 'runs');
    const [runId] = readdirSync(runsDir);
    const events = readFileSync(join(runsDir, runId!, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const started = events.filter((event) => event.type === 'tool.execution_start');
    // `tollgate run` is a person's request: each call is recorded as such before it starts.
    expect(
      events.filter((event) => event.type === 'tool.user_requested').map((event) => event.data.toolCallId),
    ).toEqual(started.map((event) => event.data.toolCallId));
    const completed = events.filter((event) => event.type === 'tool.execution_complete');
    expect(started.length).toBeGreaterThan(0);
    expect(completed.map((event) => event.data.toolCallId).sort()).toEqual(
      started.map((event) => event.data.toolCallId).sort(),
    );
    expect(completed.find((event) => event.data.toolName === 'checks')?.data).toMatchObject({
      success: false,
      error: { message: `interrupted by ${signal}`, code: 'interrupted' },
    });
    // The failed completions come before the abort, which stays the last event.
    expect(events.at(-1).type).toBe('run.abort');

    const stats = await runCli(['stats'], { cwd: repo.root, env: repo.env });
    expect(stats.stdout).toContain(`Interrupted runs: 1 (${signal} 1)`);
    expect(stats.stdout).toMatch(/checks: 1 call\(s\), ran 0.*\n(.*\n)* {2}interrupted 1/);
  },
  60_000,
);

test('a run killed with SIGKILL leaves its check running; the next run stops that process group first', async () => {
  assertBuilt();
  const marks = await tempDir('tollgate-marks-');
  try {
    // The first time, the check records its process group and starts a grandchild that would outlive it; after
    // that it passes at once.
    await repo.write(
      'tollgate.config.yaml',
      [
        'checks:',
        '  - name: server',
        '    run: if [ -f "$MARKS/done" ]; then exit 0; fi; touch "$MARKS/done"; sleep 300 & echo $$ > "$MARKS/pgid"; wait',
        '',
      ].join('\n'),
    );
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'config');
    await repo.write('a.txt', 'two\n');
    const env = { ...repo.env, TOLLGATE_DEBUG: '', MARKS: marks };
    const child = spawn(process.execPath, [CLI_PATH, 'run'], { cwd: repo.root, env, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const pgidFile = join(marks, 'pgid');
    for (let waited = 0; !existsSync(pgidFile); waited += 100) {
      if (waited > 30_000) throw new Error('the check never started');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pgid = Number(readFileSync(pgidFile, 'utf8').trim());
    // The check can write its pgid before tollgate has recorded the group in its ledger (a loaded machine may pause
    // tollgate right after the spawn): kill only once the record is on disk, as it is for any run that lived longer.
    const ledgerFile = join(repo.root, '.tollgate', 'children', `${child.pid}.json`);
    for (let waited = 0; !ledgerHolds(ledgerFile, pgid); waited += 50) {
      if (waited > 30_000) throw new Error('the run never recorded its check in the ledger');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill('SIGKILL');
    await exited;
    expect(groupAlive(pgid)).toBe(true);

    const next = await runCli(['run'], { cwd: repo.root, env });
    expect(next.stderr).toContain(`tollgate: stopped checks: sh (process group ${pgid}, pid ${child.pid} was killed)`);
    expect(groupAlive(pgid)).toBe(false);
    expect(next.exitCode).toBe(0);
  } finally {
    await removeDir(marks);
  }
}, 90_000);

function ledgerHolds(file: string, pgid: number): boolean {
  try {
    return readFileSync(file, 'utf8').includes(`"pgid":${pgid},`);
  } catch {
    return false;
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
