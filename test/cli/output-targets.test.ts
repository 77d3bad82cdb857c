import { execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * `--output PATH` writes what is at PATH, it does not replace it: a device or FIFO is written through, a symlink's
 * target is written and the link stays, `-` is stdout. An output that cannot be written fails before any work.
 */
let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function cleanRepo(): Promise<TempRepo> {
  repo = await createTempRepo({ files: { 'a.txt': 'nothing secret here\n' } });
  return repo;
}

const scan = (args: string[], r: TempRepo) =>
  runCli(['scan', 'a.txt', '--format', 'json', ...args], { cwd: r.root, env: r.env });

describe('--output targets', () => {
  test('a FIFO is written through to its reader and stays a FIFO', async () => {
    const r = await cleanRepo();
    const fifo = join(r.root, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let received = '';
    reader.stdout.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    const closed = new Promise((done) => reader.on('close', done));
    const result = await scan(['--output', fifo], r);
    await closed;
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(received).tool).toBe('tollgate');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  test('a symlink: its target gets the report, the link stays a link; a dangling link creates its target', async () => {
    const r = await cleanRepo();
    writeFileSync(join(r.root, 'real.json'), 'old\n');
    symlinkSync('real.json', join(r.root, 'link.json'));
    symlinkSync('made/by-link.json', join(r.root, 'dangling.json'));
    expect((await scan(['--output', 'link.json'], r)).exitCode).toBe(0);
    expect(lstatSync(join(r.root, 'link.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(r.root, 'real.json'), 'utf8')).tool).toBe('tollgate');
    expect((await scan(['--output', 'dangling.json'], r)).exitCode).toBe(0);
    expect(lstatSync(join(r.root, 'dangling.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(r.root, 'made/by-link.json'), 'utf8')).tool).toBe('tollgate');
  });

  test('a character device is written through and stays a character device', async (context) => {
    const r = await cleanRepo();
    const device = join(r.root, 'null');
    try {
      execFileSync('mknod', [device, 'c', '1', '3'], { stdio: 'ignore' });
    } catch {
      context.skip(); // mknod needs root
      return;
    }
    expect((await scan(['--output', device], r)).exitCode).toBe(0);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(statSync(device).rdev).toBe(statSync('/dev/null').rdev);
  });

  test('`-` is stdout, for scan, run and log', async () => {
    const r = await cleanRepo();
    const scanned = await scan(['--output', '-'], r);
    expect(JSON.parse(scanned.stdout).tool).toBe('tollgate');
    expect(existsSync(join(r.root, '-'))).toBe(false);
    const ran = await runCli(['run', '--format', 'json', '--output', '-'], { cwd: r.root, env: r.env });
    expect(JSON.parse(ran.stdout).verdict).toBeDefined();
    const logged = await runCli(['log', '--json', '--output', '-'], { cwd: r.root, env: r.env });
    expect(JSON.parse(logged.stdout).runId).toBeDefined();
    expect(existsSync(join(r.root, '-'))).toBe(false);
  });

  test('an output that cannot be written fails before any check runs: one line, exit 3', async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': 'checks:\n  - name: marker\n    run: "touch ran.marker"\n',
        'a.txt': 'a\n',
      },
    });
    await repo.write('a.txt', 'b\n');
    const result = await runCli(['run', '--output', '/proc/self/mem'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(3);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^tollgate: --output: cannot write "\/proc\/self\/mem": /);
    expect(existsSync(join(repo.root, 'ran.marker'))).toBe(false);
    expect(result.stdout).toBe('');
  });
});
