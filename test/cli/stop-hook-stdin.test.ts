import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, openSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';
import { timeBudget } from '../support/time-budget.js';

// The stop hook's stdin as agents hand it (src/integrations/hooks/read-stdin-now.ts, read-stdin.ts) through the built
// CLI, on a validated tree whose saved stamp answers: a socket (Node-based agents), a pipe (a shell, agents written in
// Rust), a file, /dev/null, a writer that keeps its end open after the payload, and one that writes it in pieces.
// Every way, the payload arrives whole (the answer comes from the saved stamp), and nothing waits for an end that
// never comes.
const CONFIG = 'checks:\n  - name: ok\n    run: "true"\n';
const STOP_ANSWERED = 'tollgate: fast path: answered from the saved stamp';
const BUDGET = 240_000;
const linux = process.platform === 'linux';

let repo: TempRepo;
let cacheDir: string;
/** The FIFOs and the payload file: beside the repository, never in it. */
let scratch: string;
let payload: string;
const env = () => ({ ...repo.env, TOLLGATE_TRACE_FAST_PATH: '1', TOLLGATE_CACHE_DIR: cacheDir, TOLLGATE_DEBUG: '' });

/** `tollgate hook stop --agent claude` with `stdin`; `feed` writes to it once started. Resolves at its exit. */
const hook = (
  stdin: 'pipe' | 'ignore' | number,
  feed?: (child: ReturnType<typeof spawn>) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, 'hook', 'stop', '--agent', 'claude'], {
      cwd: repo.root,
      env: env(),
      stdio: [stdin, 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the hook did not end: ${stderr}`));
    }, timeBudget(60_000));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    feed?.(child);
  });

const expectAnswered = (out: { code: number | null; stderr: string }) => {
  expect(out.stderr).toContain(STOP_ANSWERED);
  expect(out.code).toBe(0);
};

/** A named FIFO's two ends: the hook's stdin, and the test's writer, which the hook waits for while it is open. */
const fifo = (name: string): { reader: number; writer: number } => {
  const path = join(scratch, `${name}.fifo`);
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return { reader, writer: openSync(path, constants.O_WRONLY) };
};

describe('the stop hook reads its stdin whole, however it is handed (built CLI)', () => {
  beforeAll(async () => {
    cacheDir = await tempDir('tollgate-code-cache-');
    scratch = await tempDir('tollgate-stdin-');
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'app.txt': 'hello\n' } });
    await repo.publish();
    await repo.write('feature.txt', 'a feature\n');
    await repo.commit('feature');
    const past = new Date(Date.now() - 60_000);
    for (const path of ['tollgate.config.yaml', 'app.txt', 'feature.txt'])
      utimesSync(join(repo.root, path), past, past);
    payload = JSON.stringify({ session_id: 'stdin', cwd: repo.root, hook_event_name: 'Stop' });
    // A passing run, then stops until one answers from the stamp the first saved.
    expect((await runCli(['run'], { cwd: repo.root, env: env() })).exitCode).toBe(0);
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const out = await runCli(['hook', 'stop', '--agent', 'claude'], { cwd: repo.root, env: env(), input: payload });
      if (out.stderr.includes(STOP_ANSWERED)) return;
    }
    throw new Error('the stop hook never answered from its saved stamp');
  }, BUDGET);
  afterAll(async () => {
    await repo.cleanup();
    await removeDir(cacheDir);
    await removeDir(scratch);
  });

  test(
    'a socket, written at once or in pieces',
    async () => {
      expectAnswered(await hook('pipe', (child) => child.stdin?.end(payload)));
      expectAnswered(
        await hook('pipe', (child) => {
          child.stdin?.write(payload.slice(0, 10));
          setTimeout(() => child.stdin?.end(payload.slice(10)), 300);
        }),
      );
    },
    BUDGET,
  );

  test(
    'a socket whose writer keeps its end open after the payload, or sends nothing yet',
    async () => {
      // Read at once without the stream (read-stdin-now.ts): the hook answers on the whole payload, not on an end.
      let stdin: NodeJS.WritableStream | null | undefined;
      const open = await hook('pipe', (child) => {
        stdin = child.stdin;
        child.stdin?.write(payload);
      });
      stdin?.end();
      expectAnswered(open);
      // Nothing there when the hook looks: the stream waits for it.
      expectAnswered(await hook('pipe', (child) => setTimeout(() => child.stdin?.end(payload), 300)));
    },
    BUDGET,
  );

  test.runIf(linux)(
    'a pipe from a shell',
    async () => {
      const out = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn('sh', ['-c', `printf '%s' "$PAYLOAD" | "${process.execPath}" "${CLI_PATH}" hook stop`], {
          cwd: repo.root,
          env: { ...env(), PAYLOAD: payload },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expectAnswered(out);
    },
    BUDGET,
  );

  test(
    'a file, and /dev/null (no payload: the full path allows, failing open)',
    async () => {
      const file = join(scratch, 'payload.json');
      writeFileSync(file, payload);
      const fd = openSync(file, 'r');
      try {
        expectAnswered(await hook(fd));
      } finally {
        closeSync(fd);
      }
      const empty = await hook('ignore');
      expect(empty.code).toBe(0);
      expect(empty.stderr).toContain('got empty input');
    },
    BUDGET,
  );

  test.runIf(linux)(
    'a pipe whose writer keeps its end open after the payload, or writes it in pieces',
    async () => {
      const open = fifo('open');
      try {
        writeSync(open.writer, payload);
        // The test holds the writer until the hook has ended: it answers on the whole payload, not on an end.
        expectAnswered(await hook(open.reader));
      } finally {
        closeSync(open.writer);
        closeSync(open.reader);
      }
      const slow = fifo('slow');
      let closed = false;
      try {
        writeSync(slow.writer, payload.slice(0, 15));
        const out = await hook(slow.reader, () =>
          setTimeout(() => {
            writeSync(slow.writer, payload.slice(15));
            closeSync(slow.writer);
            closed = true;
          }, 300),
        );
        expectAnswered(out);
      } finally {
        if (!closed) closeSync(slow.writer);
        closeSync(slow.reader);
      }
    },
    BUDGET,
  );
});
