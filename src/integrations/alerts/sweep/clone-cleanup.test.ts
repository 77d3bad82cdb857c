import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterEach, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../../test/support/temp-home.js';
import { isRunning } from '../../../core/proc-stat.js';

const dirs: string[] = [];
const writers: number[] = [];
afterEach(async () => {
  for (const pid of writers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
  }
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

test('an exit no signal handler saw (a closed stdout, an internal error) stops the clone writer, then removes its clone', async () => {
  const dir = await tempDir('tollgate-clone-exit-');
  dirs.push(dir);
  const alert = join(dir, 'acme', 'web', '1');
  const shared = join(alert, '_shared_repo');
  const pidFile = join(dir, 'writer.pid');
  // A git clone stands in: a process group of its own writing into the clone, which outlives its folder if let be.
  const writer = `echo $$ > '${pidFile}'; trap '' PIPE; n=0; while :; do n=$((n+1)); echo x > f$n; done 2>/dev/null`;
  // The exit listener runs at `process.exit`, which a test worker cannot call: a child process runs these modules.
  const script = `
    import { withCloneCleanup } from './clone-cleanup.js';
    import { runProcess } from '../../../core/process.js';
    import { existsSync, mkdirSync } from 'node:fs';
    await withCloneCleanup(${JSON.stringify(alert)}, async () => {
      mkdirSync(${JSON.stringify(shared)}, { recursive: true });
      void runProcess('sh', ['-c', ${JSON.stringify(writer)}], { cwd: ${JSON.stringify(shared)} });
      while (!existsSync(${JSON.stringify(join(shared, 'f50'))})) await new Promise((done) => setTimeout(done, 10));
      process.exit(3);
    });
  `;
  const entry = join(dir, 'child.mjs');
  await build({
    stdin: { contents: script, resolveDir: dirname(fileURLToPath(import.meta.url)), loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: entry,
    logLevel: 'silent',
  });
  const child = spawn(process.execPath, [entry], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((done) => child.on('exit', done));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  writers.push(pid);
  expect(code, stderr).toBe(3);
  expect(isRunning(pid)).toBe(false);
  expect(existsSync(shared)).toBe(false);
  expect(existsSync(alert)).toBe(true);
});
