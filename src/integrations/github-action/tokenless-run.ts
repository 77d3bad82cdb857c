import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs a command so that no process above it holds the Action's token. Deleting the token from a child's env is not
 * enough: a pull request's check can read `/proc/<ancestor>/environ`, which keeps the environment each ancestor
 * started with, and this step started with the token. So the command is started by a short-lived launcher and
 * adopted by init (or the nearest subreaper): its ancestors are then a waiter that never had the token, and above it
 * nothing of ours. The waiter records the exit code in a file; stdout and stderr come back through inherited pipes,
 * which close when the command and the waiter are done.
 */
const WAITER = `
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const [status, command, ...args] = process.argv.slice(1);
const child = spawn(command, args, { stdio: 'inherit' });
const done = (code) => { writeFileSync(status, String(code)); process.exit(0); };
child.on('error', () => done(127));
child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(name, () => child.kill(name));
`;

const LAUNCHER = `
const { spawn } = require('node:child_process');
const waiter = spawn(process.execPath, ['-e', process.argv[1], ...process.argv.slice(2)], {
  detached: true,
  stdio: 'inherit',
});
waiter.unref();
process.exit(0);
`;

export interface TokenlessRun {
  exitCode: number | null;
  stdout: string;
}

export async function runWithoutTokenAncestors(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; onStderr(text: string): void },
): Promise<TokenlessRun> {
  const dir = await mkdtemp(join(tmpdir(), 'tollgate-tokenless-'));
  const status = join(dir, 'exit-code');
  try {
    const launcher = spawn(process.execPath, ['-e', LAUNCHER, WAITER, status, command, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    launcher.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    launcher.stderr.on('data', (chunk: Buffer) => options.onStderr(chunk.toString('utf8')));
    // 'close' waits for every holder of the pipes: the launcher, the waiter and the command.
    await new Promise<void>((resolve, reject) => {
      launcher.on('error', reject);
      launcher.on('close', () => resolve());
    });
    const code = await readFile(status, 'utf8').catch(() => '');
    return { exitCode: code === '' ? null : Number(code), stdout };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
