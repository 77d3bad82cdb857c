import { chmod, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * A `tollgate run` (other than a plain one) starts its snapshot's `git add` before the CLI loads, and the run takes
 * that `git add` over. A git wrapper logs every git the run starts: the snapshot's whole-tree `git add` runs twice
 * (the snapshot and the tree check after the validators), never three times (a stage begun early and then a second
 * snapshot), whether the run starts at the root, in a subfolder or through a link to it; `--help` starts no git.
 */
let repo: TempRepo;
let wrapperDir: string;
let scratch: string;
let log: string;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'a.txt': 'one\n', 'sub/b.txt': 'b\n' } });
  wrapperDir = await tempDir('tollgate-logged-git-');
  scratch = await tempDir('tollgate-tmp-');
  log = join(wrapperDir, 'argv.log');
  const realGit = (await runProcess('sh', ['-c', 'command -v git'], { cwd: repo.root })).stdout.trim();
  await writeFile(log, '');
  await writeFile(
    join(wrapperDir, 'git'),
    `#!/bin/sh\necho "$*" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(realGit)} "$@"\n`,
  );
  await chmod(join(wrapperDir, 'git'), 0o755);
  // In the run's own process: each spawn of git as it is called, and the whole CLI's bundle as it is compiled.
  await writeFile(
    join(wrapperDir, 'order.cjs'),
    `const fs = require('node:fs');
const note = (line) => fs.appendFileSync(${JSON.stringify(log)}, 'node: ' + line + '\\n');
const childProcess = require('node:child_process');
const { spawn } = childProcess;
childProcess.spawn = function (command, args, ...rest) {
  if (command === 'git') note('spawn git ' + (args || []).join(' '));
  return spawn.call(this, command, args, ...rest);
};
const vm = require('node:vm');
const { Script } = vm;
vm.Script = class extends Script {
  constructor(source, options) {
    super(source, options);
    if (options && /tollgate\\.cjs$/.test(String(options.filename))) note('bundle loaded');
  }
};
`,
  );
});
afterEach(async () => {
  await repo.cleanup();
  await removeDir(wrapperDir);
  await removeDir(scratch);
});

const snapshotAdds = (lines: string[]) => lines.filter((line) => line.startsWith('add --all --ignore-errors -- .'));

async function loggedRun(args: string[], cwd: string) {
  await writeFile(log, '');
  const env = {
    ...repo.env,
    PATH: `${wrapperDir}${delimiter}${repo.env.PATH ?? ''}`,
    TMPDIR: scratch,
    NODE_OPTIONS: `--require ${join(wrapperDir, 'order.cjs')}`,
  };
  const result = await runCli(args, { cwd, env });
  const lines = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const gits = lines.filter((line) => !line.startsWith('node: '));
  const node = lines.filter((line) => line.startsWith('node: ')).map((line) => line.slice('node: '.length));
  return { result, gits, node };
}

test('the run takes over the git add begun before the CLI loaded, from the root, a subfolder and a link', async () => {
  await repo.write('a.txt', 'two\n');
  await repo.write('sub/new.txt', 'new\n');
  await mkdir(join(scratch, 'links'));
  const link = join(scratch, 'links', 'repo-link');
  await symlink(repo.root, link);
  for (const cwd of [repo.root, join(repo.root, 'sub'), join(link, 'sub')]) {
    const { result, gits, node } = await loggedRun(['run', '--only', 'secrets', '--format', 'json'], cwd);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { files: Array<{ path: string }> };
    expect(report.files.map((file) => file.path).sort()).toEqual(['a.txt', 'sub/new.txt']);
    // The first git of the run is the snapshot's git add; the second whole-tree add is the check after the scan.
    expect(snapshotAdds([gits[0] ?? ''])).toHaveLength(1);
    expect(snapshotAdds(gits)).toHaveLength(2);
    // Ordering, in the run's own process: git add is spawned before the whole CLI's bundle is compiled.
    const firstSpawn = node.findIndex((line) => line.startsWith('spawn git add --all --ignore-errors -- .'));
    expect(firstSpawn).toBe(0);
    expect(node.indexOf('bundle loaded')).toBeGreaterThan(firstSpawn);
    expect((await readdir(scratch)).filter((name) => name.startsWith('tollgate-index-'))).toEqual([]);
    await removeDir(join(repo.root, '.tollgate'));
  }
});

test('run --help starts no git', async () => {
  const { result, gits } = await loggedRun(['run', '--help'], repo.root);
  expect(result.exitCode).toBe(0);
  expect(result.stdout).toContain('Examples:');
  expect(gits).toEqual([]);
});
