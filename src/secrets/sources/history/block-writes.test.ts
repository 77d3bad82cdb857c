import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../../test/support/git-repo.js';
import { writeLoggingGit } from '../../../../test/support/logging-git.js';
import { HUGE_KEPT_HEAP_TUNABLES, KEPT_HEAP_TUNABLES } from '../../../core/kept-heap-env.js';
import type { ProcessResult } from '../../../core/process.js';
import type { ScanTarget } from '../../scan-targets.js';
import { asGitResult, blockWritingGit } from './block-writes.js';
import { historyTargetBatches } from './history-source.js';

let repo: TempRepo | undefined;
const folders: string[] = [];
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const which = (name: string) =>
  spawnSync('sh', ['-c', `command -v ${name}`])
    .stdout.toString()
    .trim();
const gitPath = which('git');
const stdbufPath = which('stdbuf');

/** A PATH holding git alone: no stdbuf to be found. */
function gitOnlyPath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tollgate-git-only-'));
  folders.push(folder);
  symlinkSync(gitPath, join(folder, 'git'));
  return folder;
}

const result = (exitCode: number, stderr = ''): ProcessResult => ({
  exitCode,
  signal: null,
  stdout: '',
  stderr,
  timedOut: false,
  aborted: false,
  truncated: false,
  durationMs: 1,
});

describe('git told to write its output in blocks', () => {
  test('runs through stdbuf where PATH has it, with the fixed object view; plain git where it has not', () => {
    const plain = blockWritingGit(['log'], { PATH: gitOnlyPath(), X: '1' });
    expect(plain).toEqual({
      command: 'git',
      args: ['log'],
      env: { PATH: expect.any(String), X: '1', GLIBC_TUNABLES: KEPT_HEAP_TUNABLES },
    });
    if (!stdbufPath) return;
    const blocked = blockWritingGit(['log'], { PATH: process.env.PATH, X: '1' });
    expect(blocked.command).toBe(stdbufPath);
    expect(blocked.args).toEqual(['-o', '256K', 'git', 'log']);
    expect(blocked.env).toMatchObject({
      X: '1',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_OPTIONAL_LOCKS: '0',
      GLIBC_TUNABLES: KEPT_HEAP_TUNABLES,
    });
    // The first log pass asks for huge pages (core/kept-heap-env.ts); the rest keep the plain kept heap.
    const long = blockWritingGit(['log'], { PATH: gitOnlyPath(), X: '1' }, { hugePages: true });
    expect(long.env.GLIBC_TUNABLES).toBe(HUGE_KEPT_HEAP_TUNABLES);
  });

  test("stdbuf's own failures read as git not starting; git's own exit codes pass", () => {
    const through = { command: '/usr/bin/stdbuf', args: [], env: {} };
    expect(asGitResult(through, result(127, "stdbuf: failed to run command 'git'")).spawnError?.code).toBe('ENOENT');
    expect(asGitResult(through, result(125)).spawnError?.code).toBe('EACCES');
    expect(asGitResult(through, result(128, 'fatal: bad revision')).spawnError).toBeUndefined();
    expect(asGitResult({ ...through, command: 'git' }, result(127)).spawnError).toBeUndefined();
  });

  test.skipIf(!stdbufPath)(
    'a history read through stdbuf gives the targets plain git gives, byte for byte',
    async () => {
      repo = await createTempRepo();
      const imported = spawnSync('git', ['fast-import', '--quiet'], {
        cwd: repo.root,
        env: repo.env,
        input: history(40),
      });
      expect(imported.status, imported.stderr?.toString()).toBe(0);
      const targets = async (path: string) => {
        const seen: unknown[] = [];
        const env = { ...repo!.env, PATH: path };
        for await (const batch of historyTargetBatches({ repoRoot: repo!.root, env, range: 'HEAD' }))
          for (const target of batch) seen.push(await described(target));
        return seen;
      };
      const blocked = await targets(`${process.env.PATH}`);
      expect(blocked.length).toBeGreaterThan(80);
      // Binary files and messages come from `git cat-file`, also through stdbuf.
      expect(blocked.some((target) => Buffer.isBuffer((target as unknown[])[6]))).toBe(true);
      expect(blocked).toEqual(await targets(`${gitOnlyPath()}${delimiter}/nonexistent`));
    },
  );
});

describe("history's git processes and their heap", () => {
  test('the first log pass keeps its heap in huge pages; the rename pass and cat-file keep the plain kept heap', async () => {
    repo = await createTempRepo();
    const renamed =
      'commit refs/heads/main\ncommitter T <t@example.invalid> 1800000000 +0000\ndata 7\nrenamed\nR f0.txt g0.txt\n';
    const imported = spawnSync('git', ['fast-import', '--quiet'], {
      cwd: repo.root,
      env: repo.env,
      input: `${history(8)}${renamed}`,
    });
    expect(imported.status, imported.stderr?.toString()).toBe(0);
    const shim = mkdtempSync(join(tmpdir(), 'tollgate-git-shim-'));
    folders.push(shim);
    const log = join(shim, 'gits.log');
    writeLoggingGit(shim, log, `\${GLIBC_TUNABLES:-unset}|$*`);
    const { GLIBC_TUNABLES: _, ...inherited } = repo.env;
    const env = { ...inherited, PATH: `${shim}${delimiter}${process.env.PATH}` };
    for await (const batch of historyTargetBatches({ repoRoot: repo.root, env, range: 'HEAD' }))
      for (const target of batch) if (!target.skip) await target.read();
    const gits = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const tunablesOf = (part: string) => gits.filter((line) => line.includes(part)).map((line) => line.split('|')[0]);
    expect(tunablesOf(' log ').length).toBeGreaterThanOrEqual(1);
    expect(tunablesOf('--no-renames')).toEqual([HUGE_KEPT_HEAP_TUNABLES]);
    expect(tunablesOf('--find-renames')).toEqual([KEPT_HEAP_TUNABLES]);
    expect(tunablesOf('cat-file')).toEqual([KEPT_HEAP_TUNABLES]);
  });
});

/** `commits` commits on main, each appending a long line to a text file and rewriting a binary one (a NUL in it). */
function history(commits: number): string {
  let stream = '';
  for (let i = 0; i < commits; i++) {
    const text = Array.from({ length: Math.floor(i / 7) + 1 }, (_, line) => `line ${line} ${'y'.repeat(3000)}`);
    const files = [
      [`f${i % 7}.txt`, `${text.join('\n')}\n`],
      ['blob.bin', `bin\0ary ${i}\nkey = value ${i}\n`],
    ];
    stream += `commit refs/heads/main\ncommitter T <t@example.invalid> ${1_700_000_000 + i} +0000\n`;
    stream += `data ${`change ${i}`.length}\nchange ${i}\n`;
    for (const [path, content] of files)
      stream += `M 100644 inline ${path}\ndata ${Buffer.byteLength(content!)}\n${content}\n`;
  }
  return stream;
}

async function described(target: ScanTarget): Promise<unknown> {
  const content = target.skip ? null : await target.read();
  return [target.path, target.commit, target.lineMap, target.onlyLines, target.newLines, target.skip, content];
}
