import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { TollgateError } from '../errors.js';
import { acquireLock, type LockHolder } from './lock.js';
import { ensureTollgateDir } from './tollgate-dir.js';

/**
 * The contenders are real node processes running the real lock module: the TypeScript is bundled with esbuild (what
 * vitest itself runs on) into a temp script, so the test needs no prior `npm run build` and always runs this source.
 */
const CHILD = `
import { appendFileSync, existsSync } from 'node:fs';
import { acquireLock } from './lock.js';
const [repoRoot, journal, holdMs, mode] = process.argv.slice(2);
try {
  const lock = await acquireLock(repoRoot, {
    wait: mode !== 'no-wait',
    command: 'child ' + mode,
    onWait: () => appendFileSync(journal, 'wait ' + process.pid + '\\n'),
  });
  appendFileSync(journal, 'start ' + process.pid + '\\n');
  process.stdout.write('locked\\n');
  if (mode === 'exit-without-release') process.exit(0);
  if (mode === 'hold-forever') setInterval(() => {}, 1000);
  else {
    // A number holds for that long; a path holds until the test writes that file (a race decided by load, not time).
    if (holdMs.startsWith('/')) while (!existsSync(holdMs)) await new Promise((resolve) => setTimeout(resolve, 20));
    else await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
    appendFileSync(journal, 'end ' + process.pid + '\\n');
    lock.release();
  }
} catch (error) {
  appendFileSync(journal, 'busy ' + process.pid + ' ' + error.code + '\\n');
  process.exit(7);
}
`;

let bundleDir: string;
let childScript: string;
let repo: string;
let journal: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  bundleDir = await tempDir('tollgate-lock-bundle-');
  childScript = join(bundleDir, 'child.mjs');
  await build({
    stdin: {
      contents: CHILD,
      resolveDir: dirname(fileURLToPath(import.meta.url)),
      loader: 'ts',
      sourcefile: 'child.ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: childScript,
    logLevel: 'silent',
  });
});
afterAll(async () => {
  await removeDir(bundleDir);
});
beforeEach(async () => {
  repo = await tempDir('tollgate-lock-');
  journal = join(repo, 'journal.txt');
  await writeFile(journal, '');
});
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await removeDir(repo);
});

function startChild(
  mode: string,
  holdMs: number | string = 0,
): { child: ChildProcess; exited: Promise<{ code: number | null; signal: string | null }>; locked: Promise<void> } {
  const child = spawn(process.execPath, [childScript, repo, journal, String(holdMs), mode], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.on('exit', () => reject(new Error(`child ${mode} exited before locking`)));
  });
  locked.catch(() => {});
  return { child, exited, locked };
}

/** Polls `condition` until it holds (the test's own timeout bounds the wait). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function journalLines(): Promise<string[]> {
  return (await readFile(journal, 'utf8')).split('\n').filter(Boolean);
}

const lockPath = () => join(repo, '.tollgate', 'run.lock');

async function writeLock(holder: Partial<LockHolder>): Promise<void> {
  ensureTollgateDir(repo);
  const full: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: 'tollgate run',
    token: 'feedfacefeedface',
    ...holder,
  };
  await writeFile(lockPath(), JSON.stringify(full));
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

test('two processes that both wait take turns: one holds the lock, the other waits, never both at once', async () => {
  // The holder keeps the lock until the other has journalled its wait: the second really waits, however late a loaded
  // machine starts it (a fixed hold let the second start after the first had released).
  const releaseFile = join(repo, 'release');
  const contenders = [startChild('wait', releaseFile), startChild('wait', releaseFile)];
  const firstPid = await Promise.race(contenders.map((contender) => contender.locked.then(() => contender.child.pid)));
  const other = contenders.find((contender) => contender.child.pid !== firstPid)!;
  // Until the other waits, or (a lock that does not exclude) starts too, which the journal's check below reports.
  await until(async () => {
    const lines = await journalLines();
    return lines.includes(`wait ${other.child.pid}`) || lines.includes(`start ${other.child.pid}`);
  });
  await writeFile(releaseFile, '');
  const exits = await Promise.all(contenders.map((contender) => contender.exited));
  expect(exits.map((exit) => exit.code)).toEqual([0, 0]);
  expect(await journalLines()).toEqual([
    `start ${firstPid}`,
    `wait ${other.child.pid}`,
    `end ${firstPid}`,
    `start ${other.child.pid}`,
    `end ${other.child.pid}`,
  ]);
});

test('--no-wait against a live holder fails at once with the exact message', async () => {
  await writeLock({ pid: process.pid, startedAt: new Date(Date.now() - 12_000).toISOString() });
  const error = await acquireLock(repo, { wait: false }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TollgateError);
  expect((error as TollgateError).code).toBe('lock_busy');
  // 12 s when read at once; a loaded machine may take a second or more between writing the lock and reading it.
  const message = (error as TollgateError).message;
  const age = Number(/, started (\d+)s ago\)/.exec(message)?.[1]);
  expect(age).toBeGreaterThanOrEqual(12);
  expect(message).toBe(
    `another tollgate run (pid ${process.pid}, started ${age}s ago) holds .tollgate/run.lock; wait for it or rerun without --no-wait`,
  );
});

test('a live holder in another process makes a --no-wait child fail with lock_busy', async () => {
  const holder = startChild('hold-forever');
  await holder.locked;
  const contender = startChild('no-wait');
  expect((await contender.exited).code).toBe(7);
  expect(await journalLines()).toContain(`busy ${contender.child.pid} lock_busy`);
});

test('waiting gives up after timeoutMs with the same error code, and onWait hears who holds it', async () => {
  await writeLock({ pid: process.pid, startedAt: new Date(Date.now() - 125_000).toISOString() });
  const waits: string[] = [];
  const error = await acquireLock(repo, {
    wait: true,
    timeoutMs: 300,
    onWait: (description) => waits.push(description),
  }).catch((caught: unknown) => caught);
  expect((error as TollgateError).code).toBe('lock_busy');
  // 2m5s and 0s when read at once; a loaded machine may take a second or more between writing the lock and giving up.
  const message = (error as TollgateError).message;
  const [startedAgo, waited] = [/, started 2m(\d+)s ago\)/, /waiting (\d+)s/].map((pattern) =>
    Number(pattern.exec(message)?.[1]),
  );
  expect(startedAgo).toBeGreaterThanOrEqual(5);
  expect(waited).toBeGreaterThanOrEqual(0);
  expect(message).toBe(
    `another tollgate run (pid ${process.pid}, started 2m${startedAgo}s ago) holds .tollgate/run.lock; gave up after waiting ${waited}s: wait for that run to finish, or stop it (pid ${process.pid})`,
  );
  expect(waits).toEqual([expect.stringMatching(new RegExp(`^another tollgate run \\(pid ${process.pid}, started 2m`))]);
});

test('a lock whose pid is gone is taken over', async () => {
  await writeLock({ pid: await deadPid() });
  const lock = await acquireLock(repo, { wait: false, command: 'tollgate run --only checks' });
  const content = JSON.parse(await readFile(lockPath(), 'utf8')) as LockHolder;
  expect(content).toMatchObject({ pid: process.pid, host: hostname(), command: 'tollgate run --only checks' });
  lock.release();
  await expect(readFile(lockPath())).rejects.toMatchObject({ code: 'ENOENT' });
});

test('a lock held on another host counts as live (its pid cannot be checked from here)', async () => {
  await writeLock({ pid: await deadPid(), host: 'build-box-7' });
  // 0s when read at once; later on a loaded machine.
  await expect(acquireLock(repo, { wait: false })).rejects.toThrow(
    /\(pid \d+ on host "build-box-7", started \d+s ago\)/,
  );
});

test('several processes racing to take over one stale lock: exactly one wins', async () => {
  await writeLock({ pid: await deadPid() });
  // The winner holds until the three others have given up, however late a loaded machine starts one of them.
  const releaseFile = join(repo, 'release');
  const racers = Array.from({ length: 4 }, () => startChild('no-wait', releaseFile));
  let busy = 0;
  const exits = racers.map((racer) =>
    racer.exited.then(async (exit) => {
      if (exit.code === 7 && ++busy === 3) await writeFile(releaseFile, '');
      return exit;
    }),
  );
  expect((await Promise.all(exits)).map((exit) => exit.code).sort()).toEqual([0, 7, 7, 7]);
});

test('a holder killed with SIGKILL leaves a stale lock that the next run takes over', async () => {
  const holder = startChild('hold-forever');
  await holder.locked;
  holder.child.kill('SIGKILL');
  await holder.exited;
  const lock = await acquireLock(repo, { wait: false });
  lock.release();
});

test.each([
  ['exits without releasing', 'exit-without-release', null],
  ['is stopped by SIGTERM', 'hold-forever', 'SIGTERM'],
  ['is stopped by SIGINT', 'hold-forever', 'SIGINT'],
] as const)('a holder that %s removes its lock file', async (_case, mode, signal) => {
  const holder = startChild(mode);
  await holder.locked;
  if (signal) holder.child.kill(signal);
  const exit = await holder.exited;
  if (signal) expect(exit.signal).toBe(signal);
  await expect(readFile(lockPath())).rejects.toMatchObject({ code: 'ENOENT' });
});

test('release leaves a lock alone that is no longer ours', async () => {
  const lock = await acquireLock(repo, { wait: false });
  await writeLock({ token: 'someone-else' });
  lock.release();
  expect(JSON.parse(await readFile(lockPath(), 'utf8'))).toMatchObject({ token: 'someone-else' });
});
