import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo, tempDir } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * A disk that refuses a write is the machine's problem, not a finding: one line naming the path, exit 3, and the
 * report still printed when there is one. The full-disk case mounts a tiny tmpfs, which needs root; elsewhere it skips.
 */
let repo: TempRepo | undefined;
let mounted: string | undefined;
afterEach(async () => {
  if (mounted) {
    execFileSync('umount', [mounted]);
    rmSync(mounted, { recursive: true, force: true });
    mounted = undefined;
  }
  await repo?.cleanup();
  repo = undefined;
});

function tryMountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const stackTrace = /^\s+at .+:\d+:\d+\)?$/m;

describe('write failures', () => {
  test('--output into a path that cannot exist: exit 3, one line naming it, before the run', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'a\n' } });
    await repo.write('a.txt', 'b\n');
    await repo.write('blocker', 'a file, not a folder\n');
    const result = await runCli(['run', '--output', 'blocker/report.md'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(
      /^tollgate: --output: cannot write "blocker\/report\.md": /,
    );
    expect(result.stderr).not.toMatch(stackTrace);
  });

  test('a disk that fills up during the run: exit 3, the report printed, the path named, nothing stored as a pass', async (context) => {
    const dir = await tempDir('tollgate-tinyfs-');
    mkdirSync(dir, { recursive: true });
    if (process.getuid?.() !== 0 || !tryMountTmpfs(dir, '3m')) {
      rmSync(dir, { recursive: true, force: true });
      context.skip();
      return;
    }
    mounted = dir;
    repo = await createTempRepo({
      root: join(dir, 'repo'),
      files: {
        'tollgate.config.yaml': `checks:\n  - name: fill the disk\n    run: "dd if=/dev/zero of=${dir}/fill bs=1k count=8000 2>/dev/null; true"\nvalidation:\n  advisories: { enabled: false }\n  static_analysis: { enabled: false }\n`,
        'a.txt': 'a\n',
      },
    });
    await repo.write('a.txt', 'b\n');
    const result = await runCli(['run'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toContain('# tollgate:');
    expect(result.stderr).toMatch(/ENOSPC/);
    expect(result.stderr).not.toMatch(stackTrace);
  });

  test("a disk that fills up while a check's log is written: one line, exit 3, the report printed", async (context) => {
    const dir = await tempDir('tollgate-tinyfs-');
    mkdirSync(dir, { recursive: true });
    if (process.getuid?.() !== 0 || !tryMountTmpfs(dir, '3m')) {
      rmSync(dir, { recursive: true, force: true });
      context.skip();
      return;
    }
    mounted = dir;
    repo = await createTempRepo({
      root: join(dir, 'repo'),
      files: {
        'tollgate.config.yaml': `checks:\n  - name: chatty\n    run: "dd if=/dev/zero of=${dir}/fill bs=1k count=2900 2>/dev/null; head -c 4000000 /dev/zero | tr '\\\\0' x"\nvalidation:\n  advisories: { enabled: false }\n  static_analysis: { enabled: false }\n  secrets: { enabled: false }\n`,
        'a.txt': 'a\n',
      },
    });
    await repo.write('a.txt', 'b\n');
    const result = await runCli(['run'], { cwd: repo.root, env: repo.env });
    expect(result.stderr).not.toMatch(stackTrace);
    expect(result.exitCode, result.stderr).toBe(3);
    expect(result.stdout).toContain('# tollgate:');
    expect(result.stderr).toMatch(/ENOSPC/);
  });
});
