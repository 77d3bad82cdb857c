import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../test/support/temp-home.js';
import { timeBudget } from '../../test/support/time-budget.js';
import { isRunning } from './proc-stat.js';
import { killAllChildren, type OutputControl, runProcess } from './process.js';

/** Waits until `pid` has ended (the kernel may take a moment to end a killed process on a busy machine). */
async function ended(pid: number): Promise<boolean> {
  const deadline = Date.now() + timeBudget(2000);
  while (isRunning(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
  return !isRunning(pid);
}

/** Whether a process whose command line contains `marker` runs (a survivor the test started). */
async function running(marker: string): Promise<boolean> {
  return (await runProcess('pgrep', ['-f', marker], { cwd: process.cwd() })).exitCode === 0;
}

describe('runProcess', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map(removeDir));
  });

  test('captures stdout, stderr and the exit code, and feeds stdin', async () => {
    const result = await runProcess('sh', ['-c', 'read line; echo "out:$line"; echo err >&2; exit 3'], {
      cwd: process.cwd(),
      input: 'hello\n',
    });
    expect(result).toMatchObject({ exitCode: 3, stdout: 'out:hello\n', stderr: 'err\n', timedOut: false });
  });

  test('closes stdin when no input is given, so a child waiting on it does not hang', async () => {
    const result = await runProcess('sh', ['-c', 'cat; echo done'], {
      cwd: process.cwd(),
      timeoutMs: timeBudget(5000),
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false });
  });

  test('a timeout kills the whole process group, grandchildren included', async () => {
    const dir = await tempDir('tollgate-proc-');
    dirs.push(dir);
    const pidFile = join(dir, 'grandchild.pid');
    // The shell must have written the pid before the timeout: scaled, as a loaded machine starts it late.
    const result = await runProcess('sh', ['-c', `sleep 30 & echo $! > '${pidFile}'; wait`], {
      cwd: dir,
      timeoutMs: timeBudget(300),
      killGraceMs: 200,
    });
    expect(result.timedOut).toBe(true);
    const grandchild = Number(readFileSync(pidFile, 'utf8').trim());
    expect(await ended(grandchild)).toBe(true);
  });

  test('a background child left by a finished command does not hold the result hostage', async () => {
    // Waiting for the pipe to close would wait for the sleep (30 s) and end at the timeout (25 s) instead: not timed
    // out is the proof, whatever the wall clock says on a busy machine.
    const result = await runProcess('sh', ['-c', 'sleep 30 & echo started'], { cwd: process.cwd(), timeoutMs: 25_000 });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
  });

  test('a process that left the group (setsid) and holds the output does not keep us waiting', async () => {
    // A unique sleep length names the survivor, so the test can end it.
    const marker = `sleep 30.${process.pid}${Date.now() % 100000}`;
    // Written by the survivor once it has left the group: no race with the group kill at exit.
    const ready = join(tmpdir(), `survivor-ready-${process.pid}-${Date.now()}`);
    try {
      const result = await runProcess(
        'sh',
        [
          '-c',
          `setsid sh -c 'touch ${ready}; exec ${marker}' & while [ ! -f ${ready} ]; do sleep 0.01; done; echo started`,
        ],
        {
          cwd: process.cwd(),
          timeoutMs: 20_000,
        },
      );
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain('started');
      expect(result.detachedSurvivor).toBe(true);
      // Returned while the survivor still holds the output (it sleeps 30 s; the timeout, 20 s, was not reached).
      expect(result.timedOut).toBe(false);
      expect(await running(marker)).toBe(true);
    } finally {
      await runProcess('pkill', ['-f', marker], { cwd: process.cwd() });
      rmSync(ready, { force: true });
    }
  });

  test('a timeout with a detached survivor holding the output still returns, as timed out', async () => {
    const marker = `sleep 31.${process.pid}${Date.now() % 100000}`;
    // Written by the survivor once it has left the group: no race with the group kill at exit.
    const ready = join(tmpdir(), `survivor-ready-${process.pid}-${Date.now()}`);
    try {
      const result = await runProcess(
        'sh',
        [
          '-c',
          `setsid sh -c 'touch ${ready}; exec ${marker}' & while [ ! -f ${ready} ]; do sleep 0.01; done; sleep 30`,
        ],
        {
          cwd: process.cwd(),
          // The survivor must have left the group before the timeout: scaled, as a loaded machine starts it late.
          timeoutMs: timeBudget(300),
          killGraceMs: 100,
        },
      );
      expect(result.timedOut).toBe(true);
      expect(result.detachedSurvivor).toBe(true);
    } finally {
      await runProcess('pkill', ['-f', marker], { cwd: process.cwd() });
      rmSync(ready, { force: true });
    }
  });

  test('an abort signal stops the child and is reported as aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await runProcess('sleep', ['30'], {
      cwd: process.cwd(),
      signal: controller.signal,
      killGraceMs: 100,
    });
    expect(result).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
  });

  test('caps captured output and says it was truncated', async () => {
    const result = await runProcess('sh', ['-c', 'head -c 100000 /dev/zero | tr "\\0" x'], {
      cwd: process.cwd(),
      maxOutputBytes: 1000,
    });
    expect(result.stdout).toHaveLength(1000);
    expect(result.truncated).toBe(true);
  });

  test('a missing binary is a spawn error, not a throw', async () => {
    const result = await runProcess('tollgate-no-such-binary', [], { cwd: process.cwd() });
    expect(result.spawnError?.code).toBe('ENOENT');
    expect(result.exitCode).toBeNull();
  });

  test('a paused reader holds the child back: it waits on the full pipe, and every byte arrives once resumed', async () => {
    let received = 0;
    let control: OutputControl | undefined;
    const run = runProcess('sh', ['-c', 'head -c 50000000 /dev/zero; echo done >&2'], {
      cwd: process.cwd(),
      maxOutputBytes: 1024,
      outputControl: (given) => {
        control = given;
        given.pause();
      },
      onOutput: (stream, chunk) => {
        if (stream === 'stdout') received += chunk.length;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The pipe and one read at most: the child did not run ahead into our memory, and its exit left nothing behind.
    expect(received).toBeLessThan(2 * 1024 * 1024);
    control!.resume();
    const result = await run;
    expect(received).toBe(50_000_000);
    expect(result).toMatchObject({ exitCode: 0, stderr: 'done\n' });
  });

  test('a child that exits while its reader is paused loses nothing it left in the pipe', async () => {
    let received = 0;
    let control: OutputControl | undefined;
    const run = runProcess('sh', ['-c', 'head -c 30000 /dev/zero'], {
      cwd: process.cwd(),
      outputControl: (given) => {
        control = given;
        given.pause();
      },
      onOutput: (stream, chunk) => {
        if (stream === 'stdout') received += chunk.length;
      },
    });
    // Longer than the drain rounds wait for a survivor holding the pipe.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    control!.resume();
    const result = await run;
    expect(received).toBe(30_000);
    expect(result.exitCode).toBe(0);
    expect(result.detachedSurvivor).toBeUndefined();
  });

  test('killAllChildren returns only once nothing in the groups runs: a writer killed with us writes no more', async () => {
    const dir = await tempDir('tollgate-proc-');
    dirs.push(dir);
    const pidFile = join(dir, 'writer.pid');
    const written = join(dir, 'written');
    // A grandchild writing as fast as it can, as a `git clone` does into the folder the exit listeners remove next.
    const result = runProcess(
      'sh',
      ['-c', `(while :; do echo x >> '${written}'; done) & echo $! > '${pidFile}'; wait`],
      {
        cwd: dir,
      },
    );
    const deadline = Date.now() + timeBudget(5000);
    while (!(existsSync(pidFile) && existsSync(written)) && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 20));
    }
    const writer = Number(readFileSync(pidFile, 'utf8').trim());
    killAllChildren();
    // Asked at once, with no turn of the event loop between: the kill has already taken effect.
    expect(isRunning(writer)).toBe(false);
    const size = statSync(written).size;
    await new Promise((done) => setTimeout(done, 100));
    expect(statSync(written).size).toBe(size);
    expect((await result).signal).toBe('SIGKILL');
  });
});
