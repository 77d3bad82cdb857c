import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ProcessResult, runProcess } from '../../src/core/process.js';
import { createTempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';
import { createTempHome, type TempHome } from '../support/temp-home.js';

/**
 * bin/tollgate.cjs compiles the CLI's bundle through V8's code cache, kept in the user's cache folder. A cache is an
 * optimisation only: whatever is in the folder (nothing, garbage, another bundle's data, a flipped bit) and wherever
 * it cannot be written, the command prints what it prints without one.
 */
const MAGIC = 'tollgate-code-cache-3\n';
const ROOT = join(dirname(CLI_PATH), '..');
const BUNDLE = join(ROOT, 'dist/bundle/cli/tollgate.cjs');

let home: TempHome;
let withoutCache: ProcessResult;

/** `env` of the temp HOME with the cache in `dir` (or, with null, in its default place). */
function envWith(dir: string | null, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...home.env, ...extra };
  if (dir === null) delete env.TOLLGATE_CACHE_DIR;
  else env.TOLLGATE_CACHE_DIR = dir;
  return env;
}

function help(env: NodeJS.ProcessEnv, cli = CLI_PATH): Promise<ProcessResult> {
  return runProcess(process.execPath, [cli, '--help'], { cwd: home.home, env, timeoutMs: 60_000 });
}

function cacheFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.bin'));
}

/** The bundle's id as the cache header carries it: the SHA-256 the build appended. */
function bundleIdOf(bundle: string): string {
  return /tollgate-bundle-sha256: ([0-9a-f]{64})\s*$/.exec(readFileSync(bundle, 'latin1'))![1]!;
}

function expectSameAnswer(result: ProcessResult): void {
  expect(result.exitCode, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout).toBe(withoutCache.stdout);
}

beforeAll(async () => {
  home = await createTempHome();
  withoutCache = await help(envWith(null, { TOLLGATE_NO_COMPILE_CACHE: '1' }));
  expect(withoutCache.exitCode, withoutCache.stderr).toBe(0);
});
afterAll(() => home?.cleanup());

/**
 * Writes `<dir>/<name>.cjs`, a preload that wraps `vm.Script`: `note` (source run in its constructor, with `code`,
 * `options`, `this` and `fs`) pushes onto `seen`, which is written to `<dir>/<name>.json` at exit.
 */
function scriptWatch(dir: string, name: string, note: string): { preload: string; log: string } {
  const preload = join(dir, `${name}.cjs`);
  const log = join(dir, `${name}.json`);
  writeFileSync(
    preload,
    `const vm = require('node:vm'); const fs = require('node:fs');
const seen = [];
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    ${note}
  }
};
process.on('exit', () => fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify(seen)));
`,
  );
  return { preload, log };
}

describe('the code cache', () => {
  test('the first start writes a private cache file, the next one reads it and prints the same', async () => {
    const dir = join(home.home, 'cache-reuse');
    expectSameAnswer(await help(envWith(dir)));
    const [file] = cacheFiles(dir);
    expect(file).toMatch(new RegExp(`^${bundleIdOf(BUNDLE).slice(0, 32)}-${process.version}-${process.arch}-`));
    const path = join(dir, file!);
    expect(readFileSync(path, 'latin1').startsWith(`${MAGIC}${bundleIdOf(BUNDLE)}`)).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const written = statSync(path).mtimeMs;
    expectSameAnswer(await help(envWith(dir)));
    expect(statSync(path).mtimeMs, 'a valid cache is not written again').toBe(written);
    // Each command keeps its own file: a cache holds what its first run compiled.
    const helpCommand = await runCli(['help'], { cwd: home.home, env: envWith(dir) });
    expect(helpCommand.exitCode).toBe(0);
    expect(file).toMatch(/-other-help\.bin$/);
    expect(cacheFiles(dir).sort()).toEqual([file, file!.replace(/-other-help\.bin$/, '-help.bin')].sort());
  });

  test("a command's help keeps a file apart from the command's: a scan after `scan --help` reads a cache of its own", async () => {
    // A cache holds what its first run compiled and is written once: a scan reading the help's compiled what that
    // lacked at every start (a one-file scan 1.09x the CPU, docs/benchmarks.md "What loading the CLI costs a command").
    const dir = join(home.home, 'cache-help-apart');
    writeFileSync(join(home.home, 'one.txt'), 'greeting = "hello"\n');
    const scan = (...args: string[]) => runCli(['scan', ...args], { cwd: home.home, env: envWith(dir) });
    const helpText = await scan('--help');
    expect(helpText.exitCode, helpText.stderr).toBe(0);
    const [helpFile] = cacheFiles(dir);
    expect(helpFile).toMatch(/-scan-help\.bin$/);
    const first = await scan('one.txt', '--format', 'json');
    expect(first.exitCode, first.stderr).toBe(0);
    const scanFile = cacheFiles(dir).find((name) => name !== helpFile);
    expect(scanFile).toMatch(/-scan\.bin$/);
    const written = statSync(join(dir, scanFile!)).mtimeMs;
    const again = await scan('one.txt', '--format', 'json');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout.replace(/"durationMs":\s*[0-9.]+/g, '')).toBe(
      first.stdout.replace(/"durationMs":\s*[0-9.]+/g, ''),
    );
    expect(cacheFiles(dir).sort()).toEqual([helpFile, scanFile].sort());
    expect(statSync(join(dir, scanFile!)).mtimeMs, 'a valid cache is not written again').toBe(written);
  });

  test("each of `hook`'s subcommands keeps a file of its own", async () => {
    // The stop hook's hand-over to the whole CLI and `hook pre-commit` compile different code: a shared file held
    // whichever ran first, and the other compiled what it lacked at every start.
    const dir = join(home.home, 'cache-hook-apart');
    for (const hook of ['stop', 'pre-commit']) {
      const result = await runCli(['hook', hook, '--help'], { cwd: home.home, env: envWith(dir) });
      expect(result.exitCode, result.stderr).toBe(0);
    }
    // The whole CLI's files (the stop hook's own small bundle writes one too, under its id).
    const names = cacheFiles(dir)
      .filter((name) => name.startsWith(bundleIdOf(BUNDLE).slice(0, 32)))
      .map((name) => name.replace(/^.*-(hook-[a-z-]+)\.bin$/, '$1'));
    expect(names.sort()).toEqual(['hook-pre-commit-help', 'hook-stop-help']);
  });

  test('`scan --history`, which starts V8 with flags of its own, keeps a cache file of its own and reads it back', async () => {
    // V8 rejects a cache written under other flags: a history scan sharing the other scans' file would reject and
    // rewrite it on every start, each of them compiling the whole bundle.
    const repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
    try {
      await repo.write('b.txt', 'two\n');
      await repo.commit('second');
      const dir = join(home.home, 'cache-history');
      const env = envWith(dir, { HOME: repo.home });
      const scan = (...args: string[]) => runCli(['scan', ...args, '--format', 'json'], { cwd: repo.root, env });
      const uncached = await runCli(['scan', '--history', 'HEAD~1..HEAD', '--format', 'json'], {
        cwd: repo.root,
        env: { ...env, TOLLGATE_NO_COMPILE_CACHE: '1' },
      });
      expect(uncached.exitCode, uncached.stderr).toBe(0);
      const first = await scan('--history', 'HEAD~1..HEAD');
      expect(first.stderr).toBe('');
      expect(first.exitCode).toBe(0);
      await scan('a.txt');
      const files = cacheFiles(dir);
      // The flags are Node 20's (bin/tollgate.cjs): on other Nodes both scans start alike and share a file.
      const ownFlags = process.versions.node.split('.')[0] === '20';
      expect(files, 'one file for the history scan, one for the other scan').toHaveLength(ownFlags ? 2 : 1);
      const written = files.map((file) => statSync(join(dir, file)).mtimeMs);
      for (const args of [['--history=HEAD~1..HEAD'], ['a.txt']]) {
        const again = await scan(...args);
        expect(again.stderr).toBe('');
        expect(again.exitCode).toBe(0);
      }
      expect(cacheFiles(dir)).toEqual(files);
      expect(
        files.map((file) => statSync(join(dir, file)).mtimeMs),
        'valid caches are not written again',
      ).toEqual(written);
      const strip = (json: string) => json.replace(/"durationMs":\s*[0-9.]+/g, '');
      expect(strip(first.stdout)).toBe(strip(uncached.stdout));
    } finally {
      await repo.cleanup();
    }
  });

  test('garbage, a flipped bit or another bundle in the cache file is ignored and replaced', async () => {
    const dir = join(home.home, 'cache-corrupt');
    await help(envWith(dir));
    const path = join(dir, cacheFiles(dir)[0]!);
    const valid = readFileSync(path);
    const flipped = Buffer.from(valid);
    flipped[flipped.length - 100]! ^= 0xff;
    const foreign = Buffer.concat([
      Buffer.from(`${MAGIC}${'0'.repeat(64)}`, 'latin1'),
      valid.subarray(MAGIC.length + 64),
    ]);
    for (const [what, bytes] of [
      ['garbage', Buffer.from('not a code cache')],
      ['truncated', valid.subarray(0, 1000)],
      ['a flipped bit', flipped],
      ['another bundle', foreign],
    ] as const) {
      writeFileSync(path, bytes);
      expectSameAnswer(await help(envWith(dir)));
      const rewritten = readFileSync(path);
      expect(rewritten.equals(bytes), `${what}: replaced`).toBe(false);
      expect(rewritten.toString('latin1', 0, MAGIC.length + 64), what).toBe(`${MAGIC}${bundleIdOf(BUNDLE)}`);
    }
  });

  test('a rebuilt bundle of the same length and modification time never runs the old code', async () => {
    // npm gives every packed file the same mtime, and a version bump keeps the bundle's length: V8, which checks a
    // cache only against the source's length, would run the old bundle's functions.
    const install = join(home.home, 'install');
    for (const file of ['bin/tollgate.cjs', 'package.json', 'dist/bundle/cli/tollgate.cjs']) {
      mkdirSync(dirname(join(install, file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(install, file));
    }
    const bundle = join(install, 'dist/bundle/cli/tollgate.cjs');
    const cli = join(install, 'bin/tollgate.cjs');
    const dir = join(home.home, 'cache-rebuilt');
    expectSameAnswer(await help(envWith(dir), cli));
    const original = 'validate the change set with every enabled validator';
    const source = readFileSync(bundle, 'latin1');
    expect(source).toContain(original);
    const body = source.replace(/\/\/ tollgate-bundle-sha256: .*\n$/, '').replace(original, original.toUpperCase());
    const rebuilt = `${body}// tollgate-bundle-sha256: ${createHash('sha256').update(body, 'latin1').digest('hex')}\n`;
    expect(rebuilt.length).toBe(source.length);
    const { atime, mtime } = statSync(bundle);
    writeFileSync(bundle, rebuilt, 'latin1');
    utimesSync(bundle, atime, mtime);
    const after = await help(envWith(dir), cli);
    expect(after.exitCode, after.stderr).toBe(0);
    expect(after.stdout).toContain(original.toUpperCase());
  });

  test('a cache folder it cannot use (a file in the way, others may write to it) only turns the cache off', async () => {
    const blocker = join(home.home, 'not-a-folder');
    writeFileSync(blocker, '');
    expectSameAnswer(await help(envWith(join(blocker, 'cache'))));
    const shared = join(home.home, 'cache-shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expectSameAnswer(await help(envWith(shared)));
    expect(cacheFiles(shared)).toEqual([]);
    expectSameAnswer(await help(envWith('relative/cache')));
    expect(readdirSync(home.home)).not.toContain('relative');
  });

  test('it lives in $XDG_CACHE_HOME/tollgate, else ~/.cache/tollgate; TOLLGATE_NO_COMPILE_CACHE=1 turns it off', async () => {
    const xdg = join(home.home, 'xdg-cache');
    expectSameAnswer(await help(envWith(null, { XDG_CACHE_HOME: xdg })));
    expect(cacheFiles(join(xdg, 'tollgate', 'code-cache'))).toHaveLength(1);
    expectSameAnswer(await help(envWith(null, { XDG_CACHE_HOME: '' })));
    expect(cacheFiles(join(home.home, '.cache', 'tollgate', 'code-cache'))).toHaveLength(1);
    const off = join(home.home, 'cache-off');
    expectSameAnswer(await help(envWith(off, { TOLLGATE_NO_COMPILE_CACHE: '1' })));
    expect(() => readdirSync(off)).toThrow();
  });

  test('every run keeps its cache files valid across the V8 budget a run sets: each is written once', async () => {
    // bin/tollgate.cjs raises V8's interrupt budget before a `run` compiles the whole CLI; V8 rejects data written
    // under other flags. A first run, a plain run handed from its small bundle to the whole CLI, and the same runs
    // again: the whole CLI's `run` file and the small bundle's are each written once and read after (a rewrite makes a
    // new file, with a new inode).
    const repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
    try {
      await repo.write('a.txt', 'two\n');
      const dir = join(home.home, 'cache-runs');
      const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_CACHE_DIR: dir };
      for (const name of ['CHECKS', 'ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW']) env[`TOLLGATE_USE_${name}`] = '0';
      const inodes = () => Object.fromEntries(cacheFiles(dir).map((name) => [name, statSync(join(dir, name)).ino]));
      const firstRun = async () => {
        await repo.remove('.tollgate');
        const result = await runCli(['run', '--only', 'secrets', '--format', 'json'], { cwd: repo.root, env });
        expect(result.exitCode, result.stderr).toBe(0);
      };
      const plainRun = async () => {
        await repo.remove('.tollgate');
        const result = await runCli(['run'], { cwd: repo.root, env });
        expect(result.stderr).not.toMatch(/error/i);
      };
      await firstRun();
      const afterFirst = inodes();
      expect(Object.keys(afterFirst)).toHaveLength(1);
      await firstRun();
      expect(inodes(), 'a second run reads the file the first wrote').toEqual(afterFirst);
      await plainRun();
      const afterPlain = inodes();
      expect(Object.keys(afterPlain), "the small bundle's file is added").toHaveLength(2);
      expect(afterPlain).toMatchObject(afterFirst);
      await plainRun();
      await firstRun();
      expect(inodes(), 'nothing is written again').toEqual(afterPlain);
    } finally {
      await repo.cleanup();
    }
  });

  test('a `run` that examined no change writes a partial cache file, which the next run that did replaces once', async () => {
    // The whole CLI's `run` file is written once, at the exit of the first run that finds none: one written by a run
    // on an unchanged tree lacked the scan and the report, which every first run after it compiled again.
    const repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
    try {
      const dir = join(home.home, 'cache-partial');
      const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_CACHE_DIR: dir };
      for (const name of ['CHECKS', 'ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW']) env[`TOLLGATE_USE_${name}`] = '0';
      const run = async () => {
        await repo.remove('.tollgate');
        const result = await runCli(['run', '--only', 'secrets', '--format', 'json'], { cwd: repo.root, env });
        expect(result.exitCode, result.stderr).toBe(0);
      };
      const files = () =>
        cacheFiles(dir).map((name) => ({
          name,
          inode: statSync(join(dir, name)).ino,
          flag: readFileSync(join(dir, name)).toString('latin1', MAGIC.length + 64, MAGIC.length + 65),
        }));
      await run();
      const partial = files();
      expect(
        partial.map((file) => file.flag),
        'nothing changed: a partial file',
      ).toEqual(['H']);
      await run();
      expect(files(), 'another run that examines nothing leaves it').toEqual(partial);
      await repo.write('a.txt', 'two\n');
      await run();
      const complete = files();
      expect(complete.map((file) => file.name)).toEqual(partial.map((file) => file.name));
      expect(
        complete.map((file) => file.flag),
        'a run that scanned the change replaces it',
      ).toEqual(['A']);
      expect(complete[0]?.inode).not.toBe(partial[0]?.inode);
      await repo.write('a.txt', 'one\n');
      await run();
      expect(files(), 'a complete file is never replaced by a partial one').toEqual(complete);
    } finally {
      await repo.cleanup();
    }
  });

  test("a first run loads the built-in modules it needs before it changes V8's flags", async () => {
    // Node's own code cache for its built-in modules is made under V8's default flags; once bin/tollgate.cjs sets the
    // interrupt budget, V8 rejects it, and a built-in module first loaded after that is compiled from source (three
    // times the CPU). A preload notes which `node:` modules are first required after the flag changed.
    const repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
    try {
      await repo.write('a.txt', 'two\n');
      const preload = join(home.home, 'flag-watch.cjs');
      const log = join(home.home, 'flag-watch.json');
      writeFileSync(
        preload,
        `const v8 = require('node:v8'); const Module = require('node:module'); const fs = require('node:fs');
const before = new Set(); const after = new Set(); let flagged = false;
const set = v8.setFlagsFromString;
v8.setFlagsFromString = function (flags) { flagged = true; return set.call(this, flags); };
const load = Module._load;
Module._load = function (request, ...rest) {
  if (typeof request === 'string' && request.startsWith('node:')) (flagged ? after : before).add(request);
  return load.call(this, request, ...rest);
};
process.on('exit', () => fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify({ flagged, after: [...after].filter((name) => !before.has(name)) })));
`,
      );
      const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_CACHE_DIR: join(home.home, 'cache-flag-watch') };
      env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --require ${preload}`.trim();
      for (const name of ['CHECKS', 'ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW']) env[`TOLLGATE_USE_${name}`] = '0';
      const result = await runCli(['run', '--only', 'secrets', '--format', 'json'], { cwd: repo.root, env });
      expect(result.exitCode, result.stderr).toBe(0);
      const seen = JSON.parse(readFileSync(log, 'utf8')) as { flagged: boolean; after: string[] };
      // V8 12 and later (Node 22, 24) take no budget: no flag changes there.
      expect(seen.flagged).toBe(Number(process.versions.v8.split('.')[0]) <= 11);
      expect(seen.after.filter((name) => ['node:crypto', 'node:vm', 'node:fs/promises'].includes(name))).toEqual([]);
    } finally {
      await repo.cleanup();
    }
  });

  test('the cached data starts on an 8-byte boundary, which V8 reads in place', async () => {
    // V8 copies cached data that does not (the whole CLI's 1.9 MB, every page of the copy faulted in). A preload notes
    // where in its buffer each cache given to `vm.Script` starts, and whether V8 took it.
    const { preload, log } = scriptWatch(
      home.home,
      'script-watch',
      'if (options && options.cachedData) seen.push({ offset: options.cachedData.byteOffset, rejected: this.cachedDataRejected });',
    );
    const dir = join(home.home, 'cache-aligned');
    const env = envWith(dir, { NODE_OPTIONS: `--require ${preload}` });
    expect((await help(env)).exitCode).toBe(0); // writes the cache
    expect(JSON.parse(readFileSync(log, 'utf8'))).toEqual([]);
    expect((await help(env)).exitCode).toBe(0); // reads it
    const seen = JSON.parse(readFileSync(log, 'utf8')) as Array<{ offset: number; rejected: boolean }>;
    expect(seen.length).toBeGreaterThan(0);
    for (const script of seen) expect(script).toEqual({ offset: expect.any(Number), rejected: false });
    expect(seen.map((script) => script.offset % 8)).toEqual(seen.map(() => 0));
  });

  test("the cache file is read into the memory that held the bundle's bytes, not a buffer of its own", async () => {
    // A buffer of its own was a second 1-1.6 MB of fresh pages to fault in at each start (docs/benchmarks.md, "What
    // loading the CLI costs a command"). A preload notes the size of the memory the cached data given to `vm.Script`
    // lies in, and where in it the data starts.
    const { preload, log } = scriptWatch(
      home.home,
      'cache-memory-watch',
      `if (options && options.cachedData && options.filename === ${JSON.stringify(BUNDLE)}) seen.push({ memory: options.cachedData.buffer.byteLength, offset: options.cachedData.byteOffset, rejected: this.cachedDataRejected });`,
    );
    const dir = join(home.home, 'cache-same-memory');
    const env = envWith(dir, { NODE_OPTIONS: `--require ${preload}` });
    expectSameAnswer(await help(env)); // writes the cache
    expectSameAnswer(await help(env)); // reads it
    const [file] = cacheFiles(dir);
    expect(statSync(BUNDLE).size).toBeGreaterThan(statSync(join(dir, file!)).size); // room for it
    expect(JSON.parse(readFileSync(log, 'utf8'))).toEqual([
      { memory: statSync(BUNDLE).size, offset: expect.any(Number), rejected: false },
    ]);
  });

  test("a scan starts from the scan's own bundle, its cache read into room the bundle's read left; its help does not", async () => {
    // The whole CLI's 1.8 MB cost every scan's start its read, deserialization and top level (docs/benchmarks.md,
    // "A scan's own bundle"); the scan's 0.9 MB keeps a cache larger than itself, which the memory of its bytes alone
    // could not hold. A preload notes each compiled bundle and the memory its cached data lies in.
    const { preload, log } = scriptWatch(
      home.home,
      'scan-bundle-watch',
      `if (options && options.filename && options.filename.startsWith(${JSON.stringify(dirname(BUNDLE))})) seen.push({ bundle: require('node:path').basename(options.filename), memory: options.cachedData ? options.cachedData.buffer.byteLength : null, rejected: this.cachedDataRejected === true });`,
    );
    const dir = join(home.home, 'cache-scan-bundle');
    writeFileSync(join(home.home, 'scanned.txt'), 'greeting = "hello"\n');
    const env = envWith(dir, { NODE_OPTIONS: `--require ${preload}` });
    const seen: unknown[] = [];
    for (const args of [['scanned.txt'], ['scanned.txt'], ['--help'], ['scanned.txt', '-h']]) {
      const result = await runCli(['scan', ...args], { cwd: home.home, env });
      expect(result.exitCode, result.stderr).toBe(0);
      seen.push(...JSON.parse(readFileSync(log, 'utf8')));
    }
    const scanBundle = join(dirname(BUNDLE), 'scan.cjs');
    const scanCache = cacheFiles(dir).find((file) => file.startsWith(bundleIdOf(scanBundle).slice(0, 32)));
    expect(scanCache).toMatch(/-scan\.bin$/);
    expect(statSync(join(dir, scanCache!)).size).toBeGreaterThan(statSync(scanBundle).size); // why it needs room
    expect(seen).toEqual([
      { bundle: 'scan.cjs', memory: null, rejected: false },
      { bundle: 'scan.cjs', memory: 2 * statSync(scanBundle).size, rejected: false },
      { bundle: 'tollgate.cjs', memory: null, rejected: false },
      { bundle: 'tollgate.cjs', memory: statSync(BUNDLE).size, rejected: false },
    ]);
  });

  test("`hook pre-commit` starts from the scan's own bundle, with a cache file of its own; its help does not", async () => {
    // git runs the hook before every commit, and what it runs is a scan of the index: the whole CLI's 1.8 MB cost each
    // commit its read and start (docs/benchmarks.md, "`tollgate hook pre-commit`", session 30).
    const repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
    try {
      const { preload, log } = scriptWatch(
        repo.home,
        'pre-commit-bundle-watch',
        `if (options && options.filename && options.filename.startsWith(${JSON.stringify(dirname(BUNDLE))})) seen.push({ bundle: require('node:path').basename(options.filename), memory: options.cachedData ? options.cachedData.buffer.byteLength : null, rejected: this.cachedDataRejected === true });`,
      );
      const dir = join(repo.home, 'cache-pre-commit-bundle');
      await repo.write('a.txt', 'two\n');
      await repo.git('add', 'a.txt');
      const env = { ...repo.env, TOLLGATE_CACHE_DIR: dir, NODE_OPTIONS: `--require ${preload}` };
      const seen: unknown[] = [];
      for (const args of [[], [], ['--help']]) {
        const result = await runCli(['hook', 'pre-commit', ...args], { cwd: repo.root, env });
        expect(result.exitCode, result.stderr).toBe(0);
        seen.push(...JSON.parse(readFileSync(log, 'utf8')));
      }
      const scanBundle = join(dirname(BUNDLE), 'scan.cjs');
      expect(seen).toEqual([
        { bundle: 'scan.cjs', memory: null, rejected: false },
        { bundle: 'scan.cjs', memory: 2 * statSync(scanBundle).size, rejected: false },
        { bundle: 'tollgate.cjs', memory: null, rejected: false },
      ]);
      const own = cacheFiles(dir).filter((file) => file.startsWith(bundleIdOf(scanBundle).slice(0, 32)));
      expect(own.map((file) => file.replace(/^.*-(hook-[a-z-]+)\.bin$/, '$1'))).toEqual(['hook-pre-commit']);
    } finally {
      await repo.cleanup();
    }
  });

  test("the whole CLI's bundle is written wrapped and compiled as read, with no second copy", async () => {
    // Wrapping the bundle at each start made a second 1.8 MB string, flattened again by V8 (docs/benchmarks.md, "A
    // first run's CPU ledger"). A preload notes whether the source given to `vm.Script` is the file's text itself.
    const text = readFileSync(BUNDLE, 'latin1');
    const opening = Module.wrap('').split('\n')[0]; // Node's own wrapper, up to where the module's text goes
    expect(text.startsWith(`${opening}var __tollgateModule`)).toBe(true);
    const { preload, log } = scriptWatch(
      home.home,
      'source-watch',
      `if (options && options.filename === ${JSON.stringify(BUNDLE)}) seen.push(code === fs.readFileSync(options.filename, 'latin1'));`,
    );
    const env = envWith(join(home.home, 'cache-as-read'), { NODE_OPTIONS: `--require ${preload}` });
    expectSameAnswer(await help(env)); // compiles, writes the cache
    expectSameAnswer(await help(env)); // from the cache
    expect(JSON.parse(readFileSync(log, 'utf8'))).toEqual([true]);
  });

  test("the fast paths' small bundles are written wrapped and compiled as read, before `node:module` is loaded", async () => {
    // Wrapped at each start, a small bundle was a second copy in V8's young generation, flattened again; and
    // `require('node:module')` loaded the ES module loader and source maps, which no fast path uses otherwise
    // (docs/benchmarks.md, "The fast paths' built-in modules and bundles"). A preload notes, when each small bundle
    // is compiled, whether its source is the file's text itself and whether Node's public `module` is loaded yet.
    const opening = Module.wrap('').split('\n')[0]!;
    const small = ['stop-hook.cjs', 'run-fast.cjs'].map((file) => join(ROOT, 'dist/bundle/cli', file));
    for (const bundle of small) expect(readFileSync(bundle, 'latin1').startsWith(opening), bundle).toBe(true);
    const { preload, log } = scriptWatch(
      home.home,
      'small-watch',
      `if (options && ${JSON.stringify(small)}.includes(options.filename)) seen.push({ file: options.filename, asRead: code === fs.readFileSync(options.filename, 'latin1'), module: process.moduleLoadList.includes('NativeModule module') });`,
    );
    const dir = join(home.home, 'cache-small');
    const env = envWith(dir, { NODE_OPTIONS: `--require ${preload}` });
    // Outside any repository each small bundle hands its command to the whole CLI: compiled, all the same.
    const stop = await runProcess(process.execPath, [CLI_PATH, 'hook', 'stop'], {
      cwd: home.home,
      env,
      input: '{}',
      timeoutMs: 60_000,
    });
    expect(stop.exitCode, stop.stderr).toBe(0);
    const stopSeen = JSON.parse(readFileSync(log, 'utf8'));
    const run = await runProcess(process.execPath, [CLI_PATH, 'run'], { cwd: home.home, env, timeoutMs: 60_000 });
    expect(run.stderr).not.toContain('Error:');
    expect([...stopSeen, ...JSON.parse(readFileSync(log, 'utf8'))]).toEqual(
      small.map((file) => ({ file, asRead: true, module: false })),
    );
  });

  test("a run and a history scan keep V8's young generation at its starting size, unless the command line sizes it", async () => {
    // Each page the young generation grows by is faulted in once (docs/benchmarks.md, "A first run's young
    // generation"). A preload notes the new space's size when the flags change, then at exit keeps 32 MB of small
    // objects alive, which makes V8 grow a young generation that may grow, and notes the size again.
    const repo = await createTempRepo({ files: { 'a.txt': 'one\n' } });
    try {
      await repo.write('a.txt', 'two\n');
      await repo.commit('second');
      await repo.write('a.txt', 'three\n');
      const preload = join(home.home, 'young-watch.cjs');
      const log = join(home.home, 'young-watch.json');
      writeFileSync(
        preload,
        `const v8 = require('node:v8'); const fs = require('node:fs');
const newSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;
let atFlags = null;
const set = v8.setFlagsFromString;
v8.setFlagsFromString = function (flags) { const result = set.call(this, flags); atFlags = newSpace(); return result; };
process.on('exit', () => {
  const kept = [];
  for (let index = 0; index < 400000; index++) kept.push({ index, text: 'x'.repeat(index % 64) });
  fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify({ atFlags, atExit: newSpace(), kept: kept.length }));
});
`,
      );
      const seen = async (command: string[], nodeOptions: string) => {
        const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_CACHE_DIR: join(home.home, 'cache-young-watch') };
        env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} ${nodeOptions} --require ${preload}`.trim();
        for (const name of ['CHECKS', 'ADVISORIES', 'STATIC_ANALYSIS', 'CODE_REVIEW'])
          env[`TOLLGATE_USE_${name}`] = '0';
        const result = await runCli(command, { cwd: repo.root, env });
        expect(result.exitCode, result.stderr).toBe(0);
        return JSON.parse(readFileSync(log, 'utf8')) as { atFlags: number | null; atExit: number };
      };
      for (const command of [
        ['run', '--only', 'secrets', '--format', 'json'],
        ['scan', '--history', 'HEAD~1..HEAD', '--format', 'json'],
      ]) {
        const own = await seen(command, '');
        const sized = await seen(command, '--max-semi-space-size=16');
        if (Number(process.versions.v8.split('.')[0]) > 11) {
          // V8 12 and later: no flag is set, the young generation grows as V8 decides.
          expect(own.atFlags, command[0]).toBeNull();
          continue;
        }
        // Kept, it may take one step (1 MiB to 2 MiB: seen in a history scan); let grow, it doubles up to 16 MiB.
        expect(own.atFlags, command[0]).not.toBeNull();
        expect(own.atExit, command[0]).toBeLessThanOrEqual(2 * (own.atFlags ?? 0));
        expect(sized.atFlags, command[0]).not.toBeNull();
        expect(sized.atExit, command[0]).toBeGreaterThan(2 * (sized.atFlags ?? 0));
      }
    } finally {
      await repo.cleanup();
    }
  });

  test('the folder keeps only the most recently written files', async () => {
    const dir = join(home.home, 'cache-pruned');
    mkdirSync(dir, { mode: 0o700 });
    const old = new Date('2020-01-01T00:00:00Z');
    for (let index = 0; index < 20; index++) {
      const stale = join(dir, `stale-${index}.bin`);
      writeFileSync(stale, 'x');
      utimesSync(stale, old, new Date(old.getTime() + index * 1000));
    }
    writeFileSync(join(dir, 'notes.txt'), 'not ours');
    expectSameAnswer(await help(envWith(dir)));
    const left = cacheFiles(dir);
    expect(left).toHaveLength(16);
    expect(left.some((name) => name.endsWith('-other-help.bin'))).toBe(true);
    expect(left).not.toContain('stale-0.bin');
    expect(left).toContain('stale-19.bin');
    expect(readdirSync(dir)).toContain('notes.txt');
  });
});
