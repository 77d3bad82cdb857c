import { spawn } from 'node:child_process';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { assertBuilt, CLI_PATH, runCli } from '../support/run-cli.js';

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

test.each(['SIGINT', 'SIGTERM'] as const)(
  'a run interrupted by %s records an abort event that tollgate log shows',
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
    expect(await exited).toBe(signal === 'SIGINT' ? 130 : 143);

    const log = await runCli(['log'], { cwd: repo.root, env: repo.env });
    expect(log.stdout).toMatch(
      new RegExp(`interrupted by ${signal} after \\S+: the run was aborted and its checks stopped`),
    );
    const json = await runCli(['log', '--json'], { cwd: repo.root, env: repo.env });
    expect(JSON.parse(json.stdout).abort).toMatchObject({ signal });
  },
  60_000,
);
