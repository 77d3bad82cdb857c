import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { removeDir, tempDir } from '../support/git-repo.js';
import { timeBudget } from '../support/time-budget.js';

// The burners of `npm run bench -- --load N` and scripts/test-under-load.mjs (bench/load.mjs): started, then gone,
// however the process that started them ends.
const loadUrl = pathToFileURL(join(process.cwd(), 'bench/load.mjs')).href;
const recordUrl = pathToFileURL(join(process.cwd(), 'bench/npm-test-record.mjs')).href;
const load = await import(loadUrl);
const record = await import(recordUrl);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, what: string) {
  // A generous budget: on a loaded machine a burner checks on its parent only between slices of spinning.
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`still waiting: ${what}`);
}

/** A process that starts burners, prints their pids, then waits to be ended by `end` (a signal). */
async function starter(count: number) {
  const script = `import { startBurners } from ${JSON.stringify(loadUrl)};
const { pids } = startBurners(${count});
console.log(JSON.stringify(pids));
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const pids: number[] = await new Promise((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()))),
  );
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, pids, exited };
}

describe('startBurners', () => {
  it('starts the count asked for, and stop() ends them all', async () => {
    const burning = load.startBurners(2);
    expect(burning.pids).toHaveLength(2);
    expect(burning.pids.every(alive)).toBe(true);
    burning.stop();
    await until(() => !burning.pids.some(alive), 'burners to end after stop()');
  });

  it('ends them when the bench is interrupted, and exits 128 + the signal', async () => {
    const { child, pids, exited } = await starter(2);
    child.kill('SIGINT');
    expect(await exited).toEqual({ code: 130, signal: null });
    await until(() => !pids.some(alive), 'burners to end after SIGINT');
  });

  it('leaves none behind when the bench is killed outright', async () => {
    const { child, pids, exited } = await starter(1);
    child.kill('SIGKILL');
    await exited;
    await until(() => !pids.some(alive), 'burners to notice their parent is gone');
  });
});

describe('npm test records', () => {
  it('keeps recent, whole records and says how to measure when there are none', async () => {
    const root = await tempDir('tollgate-bench-record-');
    try {
      const now = new Date('2026-12-02T06:00:00Z');
      expect(record.readNpmTestRecords(root, now).records).toEqual([]);
      expect(record.readNpmTestRecords(root, now).hint).toContain('node scripts/test-under-load.mjs --load 0');
      record.appendNpmTestRecord(root, { date: '2026-10-01T00:00:00Z', burners: 0, seconds: 900 });
      record.appendNpmTestRecord(root, { date: '2026-12-01T00:00:00Z', burners: 0, seconds: 290 });
      const { appendFileSync } = await import('node:fs');
      appendFileSync(record.npmTestRecordFile(root), '{"bench":"npm-te');
      expect(record.readNpmTestRecords(root, now).records).toEqual([
        { bench: 'npm-test', date: '2026-12-01T00:00:00Z', burners: 0, seconds: 290 },
      ]);
    } finally {
      await removeDir(root);
    }
  });
});

describe('scripts/test-under-load.mjs', () => {
  it('says how to time a subset of the files (vitest arguments after --)', async () => {
    const result = await runProcess(process.execPath, ['scripts/test-under-load.mjs', '--help'], {
      cwd: process.cwd(),
      timeoutMs: timeBudget(30_000),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('[-- VITEST_ARGS…]');
    expect(result.stdout).toMatch(/example: node scripts\/test-under-load\.mjs --load 8 -- src\/\S+\.test\.ts/);
  });
});
