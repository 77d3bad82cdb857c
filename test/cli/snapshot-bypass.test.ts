import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * Each way an agent with a shell once hid a planted secret from `tollgate run` (index flags, a lying
 * file system monitor, a sparse checkout, clean filters, an A-B-A swap during a check, a NUL byte, UTF-32, a
 * force-added file under .tollgate/). Each must fail the run (exit 1) and keep the stop hook closed.
 */
let repo: TempRepo;
afterEach(() => repo.cleanup());

const token = fakeChecksumToken('ghp_', 'snapshot-bypass');
const CONFIG = [
  'validation:',
  '  advisories: { enabled: false }',
  '  static_analysis: { enabled: false }',
  '  code_review: { enabled: false }',
  'hooks:',
  '  stop: { run: true, timeout: 60s }',
  '',
].join('\n');

async function repoWith(files: Record<string, string | Buffer>, config = CONFIG): Promise<TempRepo> {
  repo = await createTempRepo({ files: { 'tollgate.config.yaml': config, 'README.md': '# app\n', ...files } });
  return repo;
}

/** `tollgate run` fails naming the path, never prints the token, and the stop hook blocks. */
async function expectCaught(path: string): Promise<void> {
  const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
  expect(run.stdout).not.toContain(token);
  expect(run.exitCode, run.stdout + run.stderr).toBe(1);
  const report = JSON.parse(run.stdout);
  const secrets = report.tools.find((tool: { name: string }) => tool.name === 'secrets');
  expect(secrets.status).toBe('failed');
  expect(secrets.findings.map((finding: { path: string }) => finding.path)).toContain(path);
  const payload = readFileSync(new URL('../fixtures/hooks/claude/stop.json', import.meta.url), 'utf8').replaceAll(
    '__REPO__',
    repo.root,
  );
  const stop = await runCli(['hook', 'stop', '--agent', 'claude'], { cwd: repo.root, env: repo.env, input: payload });
  expect(stop.stdout).not.toContain(token);
  expect(JSON.parse(stop.stdout).decision).toBe('block');
}

describe('index state cannot hide an edit', () => {
  test.each([['--skip-worktree'], ['--assume-unchanged']])(
    'update-index %s',
    async (flag) => {
      await repoWith({ 'app.py': 'print(1)\n' });
      await repo.git('update-index', flag, 'app.py');
      await repo.write('app.py', `print(1)\ntoken = "${token}"\n`);
      await expectCaught('app.py');
    },
    60_000,
  );

  test('a staged file flagged --skip-worktree and removed from disk (not checked out, still in the change)', async () => {
    await repoWith({ 'app.py': 'print(1)\n' });
    await repo.write('creds.py', `token = "${token}"\n`);
    await repo.git('add', 'creds.py');
    await repo.git('update-index', '--skip-worktree', 'creds.py');
    await repo.remove('creds.py');
    await expectCaught('creds.py');
  }, 60_000);

  test('a core.fsmonitor hook that reports nothing changed', async () => {
    await repoWith({ 'app.py': 'print(1)\n' });
    const hook = join(repo.root, '.git', 'quiet-monitor');
    writeFileSync(hook, '#!/bin/sh\nprintf "%s\\0" "$2"\n');
    chmodSync(hook, 0o755);
    await repo.git('config', 'core.fsmonitor', hook);
    await repo.git('config', 'core.fsmonitorHookVersion', '2');
    await repo.git('status');
    await repo.write('app.py', `print(1)\ntoken = "${token}"\n`);
    await expectCaught('app.py');
  }, 60_000);

  test('a file outside the sparse-checkout cone', async () => {
    await repoWith({ 'src/app.py': 'print(1)\n', 'vendor/lib.py': 'x = 1\n' });
    await repo.git('sparse-checkout', 'set', 'src');
    await repo.write('vendor/lib.py', `x = 1\ntoken = "${token}"\n`);
    await expectCaught('vendor/lib.py');
  }, 60_000);
});

describe('clean filters cannot decide what is scanned', () => {
  test('a filter in .git/config and .git/info/attributes that restores the committed text', async () => {
    await repoWith({ 'app.py': 'print(1)\n' });
    await repo.git('config', 'filter.tidy.clean', 'git show HEAD:app.py');
    writeFileSync(join(repo.root, '.git', 'info', 'attributes'), 'app.py filter=tidy\n');
    await repo.write('app.py', `print(1)\ntoken = "${token}"\n`);
    await expectCaught('app.py');
  }, 60_000);

  test('an LFS-style filter that lets only a pointer through', async () => {
    await repoWith({});
    await repo.git(
      'config',
      'filter.store.clean',
      'printf "version https://git-lfs.github.com/spec/v1\\noid sha256:0\\nsize 1\\n"',
    );
    writeFileSync(join(repo.root, '.git', 'info', 'attributes'), '*.cfg filter=store\n');
    // Past the pointer's three lines, where a scan of the added lines of the stored pointer never looks.
    await repo.write('deploy.cfg', `[deploy]\nregion = eu\nretries = 3\nverbose = false\ntoken = ${token}\n`);
    await expectCaught('deploy.cfg');
  }, 60_000);
});

describe('validators read the snapshot', () => {
  test('a check that swaps in a clean file while it runs and restores the secret (A-B-A)', async () => {
    // The clean file stays until the secrets validator has finished (its completion is in the run's event log, written
    // as it happens), however long that takes on a busy machine: no fixed sleep to outlast it.
    const swap = [
      'cp app.py .git/aba-backup',
      "printf 'print(1)\\n' > app.py",
      'i=0',
      `while [ $i -lt 1200 ] && ! grep -qsE 'execution_complete.{0,80}"toolName":"secrets"' .tollgate/runs/*/events.jsonl; do`,
      '  sleep 0.02; i=$((i+1))',
      'done',
      'cp .git/aba-backup app.py',
      '',
    ].join('\n');
    const check = ['checks:', '  - name: swap', '    run: sh .git/aba-swap.sh', ''].join('\n');
    await repoWith({ 'app.py': 'print(1)\n' }, `${CONFIG}${check}`);
    writeFileSync(join(repo.root, '.git', 'aba-swap.sh'), swap);
    await repo.write('app.py', `print(1)\ntoken = "${token}"\n`);
    await expectCaught('app.py');
  }, 90_000);

  test('a force-added file under .tollgate/', async () => {
    await repoWith({});
    await repo.write('.tollgate/creds.py', `token = "${token}"\n`);
    await repo.git('add', '-f', '.tollgate/creds.py');
    await expectCaught('.tollgate/creds.py');
  }, 60_000);
});

describe('content no validator could read', () => {
  test('a changed file git cannot read (a nested repository without a commit): incomplete, not a pass', async () => {
    await repoWith({ 'app.py': 'print(1)\n' });
    await repo.write('vendor/nested/lib.py', 'x = 1\n');
    await repo.git('-C', 'vendor/nested', 'init', '--quiet');
    const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(run.exitCode, run.stdout + run.stderr).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.verdict).not.toBe('passed');
    for (const tool of report.tools.filter((entry: { status: string }) => !entry.status.startsWith('skipped'))) {
      expect([tool.name, tool.status]).not.toEqual([tool.name, 'passed']);
    }
    expect(JSON.stringify(report.tools)).toContain('vendor/nested');
  }, 60_000);
});

describe('binary is not a hiding place', () => {
  test('one NUL byte: tollgate run, the pre-commit scan and scan --all find the secret', async () => {
    await repoWith({});
    await repo.write('data/blob.bin', Buffer.concat([Buffer.from([0, 1, 2, 0xff, 0x0a]), Buffer.from(`${token}\n`)]));
    await expectCaught('data/blob.bin');
    await repo.git('add', 'data/blob.bin');
    for (const args of [
      ['scan', '--staged'],
      ['scan', '--all'],
    ]) {
      const scan = await runCli([...args, '--format', 'json'], { cwd: repo.root, env: repo.env });
      expect(scan.exitCode, scan.stdout + scan.stderr).toBe(1);
      expect(scan.stdout).not.toContain(token);
      expect(scan.stdout).toContain('data/blob.bin');
    }
  }, 90_000);

  test('UTF-32 text', async () => {
    await repoWith({});
    const text = `token = "${token}"\n`;
    const bytes = Buffer.alloc(text.length * 4);
    [...text].forEach((char, i) => {
      bytes.writeUInt32LE(char.codePointAt(0)!, i * 4);
    });
    await repo.write('notes.txt', bytes);
    await expectCaught('notes.txt');
  }, 60_000);
});

describe('submodule pointer changes', () => {
  test("a checked-out submodule's new commits are scanned, a secret added then deleted in them included", async () => {
    const sub = await createTempRepo({ files: { 'lib.py': 'x = 1\n' } });
    try {
      await repoWith({});
      await repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.root, 'vendor/lib');
      await repo.commit('add the submodule');
      const inside = (...args: string[]) => repo.git('-C', 'vendor/lib', ...args);
      await inside('config', 'user.email', 'a@example.com');
      await inside('config', 'user.name', 'a');
      await repo.write('vendor/lib/creds.py', `token = "${token}"\n`);
      await inside('add', '-A');
      await inside('commit', '-q', '-m', 'creds');
      await inside('rm', '-q', 'creds.py');
      await inside('commit', '-q', '-m', 'no creds');
      await expectCaught('vendor/lib/creds.py');
    } finally {
      await sub.cleanup();
    }
  }, 90_000);

  test('a pointer moved to commits the submodule does not have: incomplete, not a pass', async () => {
    const sub = await createTempRepo({ files: { 'lib.py': 'x = 1\n' } });
    try {
      await repoWith({});
      await repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub.root, 'vendor/lib');
      await repo.commit('add the submodule');
      await repo.git('submodule', 'deinit', '-q', '-f', 'vendor/lib');
      await repo.git('update-index', '--cacheinfo', `160000,${'ab'.repeat(20)},vendor/lib`);
      const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
      expect(run.exitCode, run.stdout + run.stderr).toBe(1);
      const secrets = JSON.parse(run.stdout).tools.find((tool: { name: string }) => tool.name === 'secrets');
      expect(secrets.status).toBe('incomplete');
      expect(secrets.summary).toContain('vendor/lib');
    } finally {
      await sub.cleanup();
    }
  }, 90_000);
});

describe('symbolic links to folders', () => {
  test('are links, not unreadable files: run passes and scan --all lists nothing as unreadable', async () => {
    await repoWith({ 'docs/guide.md': '# guide\n' });
    await symlink('docs', join(repo.root, 'docs-link'));
    const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(run.exitCode, run.stdout).toBe(0);
    const scan = await runCli(['scan', '--all', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(scan.exitCode, scan.stdout + scan.stderr).toBe(0);
    expect(JSON.parse(scan.stdout).skipped).toEqual([]);
  }, 60_000);
});
