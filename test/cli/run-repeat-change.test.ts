import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

// The repeat run's fast path for a change (src/core/run/unchanged-run.ts, src/cli/run-fast.ts) through the built CLI:
// a change committed but not pushed, validated by a passing run, is answered from the saved result by both a plain
// `tollgate run` and the stop hook, and any change to what decided it (a tracked or untracked file, HEAD, the base
// ref, the config, the policy state, the cache itself) sends it down the full path. TOLLGATE_TRACE_FAST_PATH=1 says
// which path answered.
const CONFIG = 'checks:\n  - name: ok\n    run: "true"\n';
const ANSWERED = 'tollgate: fast path: answered from the saved result';
const STOP_ANSWERED = 'tollgate: fast path: answered from the saved stamp';
const TRACE = { TOLLGATE_TRACE_FAST_PATH: '1' };
/** Several whole runs per test: generous, so that a loaded machine is slow rather than failing. */
const BUDGET = 240_000;

/**
 * The flag byte of the repeat run's small bundle's code cache ('A': written by a run it answered), and its mtime: the
 * newest of its two (`-direct`: the run that took its stamp itself, from saved evidence; bin/tollgate.cjs).
 */
const runFastCache = (dir: string): { flag: string; written: number } | undefined => {
  const bundle = readFileSync(join(CLI_PATH, '../../dist/bundle/cli/run-fast.cjs'), 'latin1');
  const id = /tollgate-bundle-sha256: ([0-9a-f]{64})\s*$/.exec(bundle)![1]!;
  const name = readdirSync(dir)
    .filter((file) => file.startsWith(id.slice(0, 32)) && /-run(-direct)?\.bin$/.test(file))
    .sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs)[0];
  if (!name) return undefined;
  const header = readFileSync(join(dir, name)).toString('latin1', 0, 'tollgate-code-cache-3\n'.length + 65);
  return { flag: header.at(-1)!, written: statSync(join(dir, name)).mtimeMs };
};

const backdate = (repo: TempRepo, ...paths: string[]) => {
  const past = new Date(Date.now() - 60_000);
  for (const path of paths) utimesSync(join(repo.root, path), past, past);
};

describe('a repeat run of a committed, unpushed, validated change (built CLI)', () => {
  let repo: TempRepo;
  /** This test's own code cache: the test run's shared one is written by other tests too. */
  let cacheDir: string;
  beforeEach(async () => {
    cacheDir = await tempDir('tollgate-code-cache-');
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'app.txt': 'hello\n' } });
    await repo.publish();
    await repo.write('feature.txt', 'a feature\n');
    await repo.commit('feature');
    // Past git's racy-clean window: a stamp taken while a file it reads is seconds old is never saved.
    backdate(repo, 'tollgate.config.yaml', 'app.txt', 'feature.txt');
  });
  afterEach(async () => {
    await repo.cleanup();
    await removeDir(cacheDir);
  });

  const env = () => ({ ...repo.env, ...TRACE, TOLLGATE_CACHE_DIR: cacheDir });
  const run = () => runCli(['run'], { cwd: repo.root, env: env() });
  const stop = () =>
    runCli(['hook', 'stop', '--agent', 'claude'], {
      cwd: repo.root,
      env: env(),
      input: JSON.stringify({ session_id: 'repeat', cwd: repo.root, hook_event_name: 'Stop' }),
    });
  /** Full runs until one saved its stamp (a pass, then a repeat of it), then the answer from the saved result. */
  const primed = async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const out = await run();
      expect(out.exitCode).toBe(0);
      if (out.stderr.includes(ANSWERED)) return out;
    }
    throw new Error('the fast path never answered');
  };
  const expectFullRun = async (exitCode = 0) => {
    const out = await run();
    expect(out.stderr).not.toContain(ANSWERED);
    expect(out.stderr).toContain('handed to the full run');
    expect(out.exitCode).toBe(exitCode);
    return out;
  };

  test(
    'is answered from the saved result, run and stop hook, with the change in the report',
    async () => {
      const first = await run();
      expect(first.exitCode).toBe(0);
      expect(first.stderr).not.toContain(ANSWERED);
      // The small bundle's code cache, written by a run it handed on, is replaced once by a run it answered.
      expect(runFastCache(cacheDir)?.flag).toBe('H');
      const answered = await primed();
      const complete = runFastCache(cacheDir);
      expect(complete?.flag).toBe('A');
      expect((await run()).stderr).toContain(ANSWERED);
      expect(runFastCache(cacheDir)?.written).toBe(complete?.written);
      expect(answered.stdout).toContain('1 changed file(s)');
      expect(answered.stdout).toContain('may be declared done');
      const runId = /run `([^`]+)`/.exec(answered.stdout)?.[1] ?? '';
      const start = JSON.parse(
        readFileSync(join(repo.root, '.tollgate/runs', runId, 'events.jsonl'), 'utf8').split('\n')[0]!,
      );
      expect(start.data.unchangedSince).toBeDefined();

      // The stop hook: the first stop saves its stamp, the next is answered from it.
      const firstStop = await stop();
      expect(firstStop.exitCode).toBe(0);
      const repeated = await stop();
      expect(repeated.exitCode).toBe(0);
      expect(repeated.stderr).toContain(STOP_ANSWERED);
      // A moved base ref: the stop hook's stamp takes every ref too.
      await repo.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
      const moved = await stop();
      expect(moved.stderr).not.toContain(STOP_ANSWERED);
    },
    BUDGET,
  );

  test(
    'an answer exits as soon as it is written: whole through a pipe, and exit 0 with nothing said when the reader left',
    async () => {
      const answered = await primed();
      // As runCli runs it (TOLLGATE_* variables are part of the stamp).
      const shellEnv = { ...env(), TOLLGATE_DEBUG: '' };
      // The answer is written straight to the descriptor, then the process exits: nothing of it may be lost.
      const piped = await runProcess('sh', ['-c', `"${process.execPath}" "${CLI_PATH}" run | cat`], {
        cwd: repo.root,
        env: shellEnv,
        timeoutMs: 60_000,
      });
      expect(piped.stderr).toContain(ANSWERED);
      expect(piped.stdout.replace(/run `[^`]+`|\d+ms/g, '')).toBe(answered.stdout.replace(/run `[^`]+`|\d+ms/g, ''));
      // A reader that is gone before the answer is written: not an error, and the run still counts.
      const gone = await runProcess(
        'sh',
        ['-c', `exec 3>&1; { "${process.execPath}" "${CLI_PATH}" run; echo "exit $?" >&3; } | true`],
        { cwd: repo.root, env: shellEnv, timeoutMs: 60_000 },
      );
      expect(gone.stdout.trim()).toBe('exit 0');
      expect(gone.stderr).toContain(ANSWERED);
      expect(gone.stderr).not.toMatch(/EPIPE|cannot write|internal error/);
    },
    BUDGET,
  );

  test(
    'an answer from the saved evidence reads no package.json, and such a stop arms no timer',
    async () => {
      // What each answer did, noted by a preload: package.json read (the version is in the bundle), Node's timers used.
      const preload = join(cacheDir, 'watch.cjs');
      const log = join(cacheDir, 'watch.jsonl');
      writeFileSync(
        preload,
        `const fs = require('node:fs'); const seen = [];
for (const name of ['readFileSync', 'openSync', 'existsSync']) {
  const original = fs[name];
  fs[name] = function (path, ...rest) {
    if (String(path).endsWith('package.json')) seen.push(name + ' package.json');
    return original.call(this, path, ...rest);
  };
}
for (const name of ['setTimeout', 'setInterval']) {
  const original = globalThis[name];
  globalThis[name] = function (...args) { seen.push(name); return original.apply(this, args); };
}
process.on('exit', () => fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(seen) + '\\n'));
`,
      );
      await primed();
      expect((await stop()).exitCode).toBe(0);
      expect((await stop()).stderr).toContain(STOP_ANSWERED);
      const watched = { ...env(), NODE_OPTIONS: `--require ${preload}` };
      const answered = await runCli(['run'], { cwd: repo.root, env: watched });
      expect(answered.stderr).toContain(ANSWERED);
      const stopped = await runCli(['hook', 'stop', '--agent', 'claude'], {
        cwd: repo.root,
        env: watched,
        input: JSON.stringify({ session_id: 'repeat', cwd: repo.root, hook_event_name: 'Stop' }),
      });
      expect(stopped.stderr).toContain(STOP_ANSWERED);
      expect(JSON.parse(stopped.stdout)).toEqual({});
      const lines = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as string[]);
      expect(lines).toEqual([[], []]);
    },
    BUDGET,
  );

  test(
    'a tracked or an untracked file takes the full path',
    async () => {
      await primed();
      await repo.write('app.txt', 'hello again\n');
      backdate(repo, 'app.txt');
      await expectFullRun();

      await primed();
      await repo.write('untracked.txt', 'new\n');
      backdate(repo, 'untracked.txt');
      await expectFullRun();
    },
    BUDGET,
  );

  test(
    'a new HEAD (commit, amend, reset) takes the full path',
    async () => {
      // The same tree at a new commit: the commits since the base are part of the change.
      await primed();
      await repo.git('commit', '--quiet', '--allow-empty', '-m', 'more');
      await expectFullRun();

      await primed();
      await repo.git('commit', '--quiet', '--amend', '--allow-empty', '-m', 'amended');
      await expectFullRun();

      await primed();
      await repo.git('reset', '--quiet', '--soft', 'HEAD~1');
      await expectFullRun();
    },
    BUDGET,
  );

  test(
    'the base ref, the config, the policy state or a tampered cache takes the full path',
    async () => {
      await primed();
      // The base ref moved (onto HEAD): another base, another change set.
      await repo.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
      await expectFullRun();

      await primed();
      // The config rewritten with the same text: only the full path can say whether it still is the same.
      writeFileSync(join(repo.root, 'tollgate.config.yaml'), CONFIG);
      backdate(repo, 'tollgate.config.yaml');
      await expectFullRun();

      await primed();
      // Accepted policy edits (here a forged file, which accepts nothing): read by the full path only.
      await writeFile(join(repo.root, '.tollgate/policy-accepted.json'), '{"version":1,"accepted":[]}\n');
      await expectFullRun();

      await primed();
      const cachePath = join(repo.root, '.tollgate/run-cache.json');
      const cache = JSON.parse(readFileSync(cachePath, 'utf8')) as Record<string, unknown>;
      writeFileSync(cachePath, JSON.stringify({ ...cache, keepRuns: 1000 }));
      await expectFullRun();
    },
    BUDGET,
  );

  test(
    'a base ref moved inside packed-refs (the stamp reads .git itself there) takes the full path',
    async () => {
      await repo.git('pack-refs', '--all');
      await primed();
      // Rewritten by hand, as an agent could: git never writes a loose ref for it, only packed-refs changes.
      const packedPath = join(repo.root, '.git/packed-refs');
      const head = (await repo.git('rev-parse', 'HEAD')).trim();
      const packed = readFileSync(packedPath, 'latin1');
      const moved = packed.replace(/^[0-9a-f]{40} refs\/remotes\/origin\/main$/m, `${head} refs/remotes/origin/main`);
      expect(moved).not.toBe(packed);
      writeFileSync(packedPath, moved);
      expect((await repo.git('rev-parse', 'refs/remotes/origin/main')).trim()).toBe(head);
      await expectFullRun();
    },
    BUDGET,
  );
});

describe('only a complete pass is ever saved', () => {
  let repo: TempRepo;
  afterEach(() => repo.cleanup());

  test('a run that fails, or is incomplete, never leaves a saved result', async () => {
    // A check that writes into the tree it checks: the tree changed under the run, so every result is incomplete.
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': 'checks:\n  - name: scribble\n    run: "date +%N >> app.txt"\n',
        'app.txt': 'hello\n',
      },
    });
    await repo.publish();
    await repo.write('feature.txt', 'a feature\n');
    await repo.commit('feature');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const out = await runCli(['run'], { cwd: repo.root, env: repo.env });
      expect(out.exitCode).not.toBe(0);
      expect(out.stdout).toContain('INCOMPLETE');
      expect(existsSync(join(repo.root, '.tollgate/run-cache.json'))).toBe(false);
    }
  });

  test('a failing run removes the saved result', async () => {
    repo = await createTempRepo({
      files: { 'tollgate.config.yaml': 'checks:\n  - name: ok\n    run: "test ! -e broken.txt"\n', 'a.txt': 'a\n' },
    });
    await repo.publish();
    await repo.write('feature.txt', 'a feature\n');
    await repo.commit('feature');
    expect((await runCli(['run'], { cwd: repo.root, env: repo.env })).exitCode).toBe(0);
    expect(existsSync(join(repo.root, '.tollgate/run-cache.json'))).toBe(true);
    await repo.write('broken.txt', 'broken\n');
    expect((await runCli(['run'], { cwd: repo.root, env: repo.env })).exitCode).toBe(1);
    expect(existsSync(join(repo.root, '.tollgate/run-cache.json'))).toBe(false);
  });
});

describe('a fast path that cannot finish', () => {
  let repo: TempRepo;
  let preloads: string;
  beforeAll(async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'app.txt': 'hello\n' } });
    await repo.publish();
    preloads = await tempDir('tollgate-preload-');
    // Every child process started from here on never ends and holds nothing open: the fast path's `git status`
    // never answers, and Node finds nothing left to wait for.
    await mkdir(preloads, { recursive: true });
    await writeFile(
      join(preloads, 'git-never-ends.cjs'),
      [
        "const { EventEmitter } = require('node:events');",
        "require('node:child_process').spawn = () => new EventEmitter();",
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await repo.cleanup();
    await removeDir(preloads);
  });

  test('exits 3 (internal error), never 0, and prints no report', async () => {
    // A saved result to read, so the small bundle itself waits for the stamp.
    expect((await runCli(['run'], { cwd: repo.root, env: repo.env })).exitCode).toBe(0);
    expect(existsSync(join(repo.root, '.tollgate/run-cache.json'))).toBe(true);
    const out = await runCli(['run'], {
      cwd: repo.root,
      env: { ...repo.env, NODE_OPTIONS: `--require ${join(preloads, 'git-never-ends.cjs')}` },
    });
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('tollgate: internal error: `tollgate run` stopped before it finished');
    expect(out.exitCode).toBe(3);
  });
});
