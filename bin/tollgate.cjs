#!/usr/bin/env node
'use strict';
// The `tollgate` command. Agents run tollgate after every turn, so what it reads before answering is kept small:
// - `--version` is read from package.json here;
// - `hook stop` first tries the stop hook's fast path, a small bundle of its own (dist/bundle/cli/stop-hook.cjs),
//   which hands the stop to the whole CLI when it cannot answer alone;
// - a plain `run` likewise first tries the no-change run's small bundle (dist/bundle/cli/run-fast.cjs);
// - `scan` and `hook pre-commit` (git's hook: a scan of the index) without help load the scan's own bundle
//   (dist/bundle/cli/scan.cjs): the CLI without the gate's pipeline;
// - everything else loads the bundled CLI (dist/bundle/cli/tollgate.cjs); every bundle goes through V8's code cache:
//   compiling the whole bundle on each start cost more than most runs' own work. See "The code cache" below.
const fs = require('node:fs');
const path = require('node:path');

const bundleDir = path.join(__dirname, '..', 'dist', 'bundle', 'cli');
const args = process.argv.slice(2);

/** `tollgate scan … --history <range>` (or `--history=<range>`): only the speed of the run depends on it. */
function isHistoryScan(argv) {
  return argv[0] === 'scan' && argv.some((arg) => arg === '--history' || arg.startsWith('--history='));
}

/** `tollgate --version` as commander prints it; false (the CLI answers instead) when package.json is not ours. */
function printVersion() {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
    if (manifest.name !== 'tollgate' || typeof manifest.version !== 'string') return false;
    process.stdout.write(`${manifest.version}\n`);
    return true;
  } catch {
    return false;
  }
}

// The code cache. One file per bundle, Node version, architecture, V8 flags and command: a cache holds the functions
// its first run compiled, and a `run` started from the cache another command wrote compiled the rest each time (about
// an eighth more CPU per run).
// It lives in the user's cache folder ($TOLLGATE_CACHE_DIR, else $XDG_CACHE_HOME/tollgate/code-cache, else
// ~/.cache/tollgate/code-cache), never in the repository being judged. V8 checks a cache only against the source's
// length (a bundle of the same length, as a version bump makes, would run the old code) and, in release builds, not
// against a checksum (a flipped bit could crash every start): so each file starts with our own header, the bundle's
// SHA-256 and a SHA-1 of V8's data, and anything that does not match is ignored and rewritten. Every failure falls
// back to compiling; TOLLGATE_NO_COMPILE_CACHE=1 turns the cache off.
// A small bundle's cache also says whether the run that wrote it answered: the first run in a repository hands its
// command to the whole CLI, and a cache written then lacked every function of the answer, which each answering run
// compiled again. An answering run replaces such a cache once, with everything both paths compiled.
const CACHE_MAGIC = 'tollgate-code-cache-3\n';
const CACHE_ID_LENGTH = 64;
const CACHE_COMPLETE = 'A';
const CACHE_PARTIAL = 'H';
const CACHE_DIGEST_LENGTH = 20;
// V8 copies cached data that does not start on an 8-byte boundary before reading it (1.9 MB for the whole CLI, each
// page of the copy faulted in: 7 ms of a first run's CPU, docs/benchmarks.md "A first run's young generation"), so the
// header is padded to a multiple of 8 bytes: the data then starts aligned in the buffer `readWhole` reads it into.
const CACHE_PAD = '\n'.repeat((8 - ((CACHE_MAGIC.length + CACHE_ID_LENGTH + 1 + CACHE_DIGEST_LENGTH) % 8)) % 8);
const CACHE_FILES_KEPT = 16;
/** What a bundle written already wrapped starts with: `Module.wrap`'s own opening (scripts/bundle-lib.mjs). */
const LOADER_WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';

/** The cache folder, or null when there is none to use (turned off, or no absolute place for it). */
function cacheDirectory(env) {
  if (env.TOLLGATE_NO_COMPILE_CACHE === '1' || env.TOLLGATE_NO_CODE_CACHE === '1') return null;
  let dir = env.TOLLGATE_CACHE_DIR;
  if (!dir) {
    const xdg = env.XDG_CACHE_HOME;
    const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || require('node:os').homedir(), '.cache');
    dir = path.join(base, 'tollgate', 'code-cache');
  }
  // A relative path would land in the current directory, usually the repository being judged.
  return path.isAbsolute(dir) && ownedByUs(dir) ? dir : null;
}

function ownedByUs(dir) {
  try {
    const info = fs.statSync(dir);
    if (!info.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    // Someone else's folder (or one others may write) is never read: a code cache is code.
    return (typeof process.getuid !== 'function' || info.uid === process.getuid()) && (info.mode & 0o022) === 0;
  } catch {
    return true; // absent: created when the cache is written, ours
  }
}

/** The bundle's SHA-256: the build appends it (scripts/bundle-lib.mjs); computed here for a bundle without one. */
function bundleId(source) {
  const trailer = /\/\/ tollgate-bundle-sha256: ([0-9a-f]{64})\s*$/.exec(source.slice(-120));
  return trailer ? trailer[1] : require('node:crypto').createHash('sha256').update(source, 'latin1').digest('hex');
}

/** Node's and V8's flags the user gave: the command line's and NODE_OPTIONS'. A tuning below never overrides one. */
const USER_NODE_FLAGS = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS || ''}`;

/** A short tag of what else V8 checks a cache against: the flags from the command line, NODE_OPTIONS and our own. */
function flagsTag() {
  const flags = `${USER_NODE_FLAGS} ${runtimeV8Flags}`.trim();
  let hash = 0x811c9dc5;
  for (let index = 0; index < flags.length; index++) hash = Math.imul(hash ^ flags.charCodeAt(index), 0x01000193);
  return flags === '' ? 'default' : (hash >>> 0).toString(16);
}

/**
 * A command line that asks for help (`--help`, `-h`, `help …`: src/cli/help-names.ts) compiles little of the command
 * it names, and a cache file is written once: the help's file of its own, else every later `scan` after a `scan
 * --help` compiled what the help's cache lacked at each start (a one-file scan 1.09x the CPU, docs/benchmarks.md
 * "What loading the CLI costs a command").
 */
function asksForHelp(argv) {
  return argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
}

const COMMAND_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * The command a cache file is for. `hook`'s subcommands are commands of their own (the stop hook's hand-over to the
 * whole CLI and `hook pre-commit` compile different code): one shared file would hold whichever ran first.
 */
function commandTag() {
  const command = COMMAND_NAME.test(args[0] || '') ? args[0] : 'other';
  return command === 'hook' && COMMAND_NAME.test(args[1] || '') ? `hook-${args[1]}` : command;
}

/** `variant`: a small bundle that took its stamp itself (`fastPath`) compiles other functions than one that did not. */
function cacheFileName(id, variant) {
  const command = commandTag();
  const help = command !== 'help' && asksForHelp(args) ? '-help' : '';
  return `${id.slice(0, 32)}-${process.version}-${process.arch}-${flagsTag()}-${command}${help}${variant}.bin`;
}

function sha1(bytes) {
  return require('node:crypto').createHash('sha1').update(bytes).digest();
}

/**
 * A file's bytes, read into `spare` when it holds them all, else into a buffer of their own (`readFileSync`'s). The
 * whole CLI's start reads its 1.8 MB bundle and then its cache file: the bundle's bytes are dead once decoded (the
 * string is a copy), so the cache is read into the same memory, where a buffer of its own (1.6 MB for `scan
 * --history`) was 400 more pages to fault in, about 11 us each on the project's VMs (docs/benchmarks.md, "What loading
 * the CLI costs a command", session 28). No `fstat`: a read that fills `spare` is read again whole. Small bundles pass
 * no spare: their caches are larger than they are.
 */
function readWhole(file, spare) {
  if (spare === undefined) return fs.readFileSync(file);
  const fd = fs.openSync(file, 'r');
  let read;
  try {
    read = readInto(fd, spare, spare.length);
  } finally {
    fs.closeSync(fd);
  }
  return read < spare.length ? spare.subarray(0, read) : fs.readFileSync(file);
}

/** Reads `fd` from its start into `buffer` until `limit` bytes or the file's end; the count read. */
function readInto(fd, buffer, limit) {
  let read = 0;
  let count;
  do {
    count = fs.readSync(fd, buffer, read, limit - read, read);
    read += count;
  } while (count !== 0 && read < limit);
  return read;
}

/**
 * A bundle's bytes at the start of a buffer `room` times their size, so that its cache file fits in the same memory
 * (`readWhole`'s spare): the scan's bundle (0.9 MB) keeps a cache of 1.3-1.5 MB, which a buffer of the bundle's size
 * could not hold, and a buffer of its own was 320-360 more pages to fault in. The pages past the bundle are touched
 * only by the cache's read.
 */
function readWithRoom(file, room) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const buffer = Buffer.allocUnsafeSlow(size * room);
    return { bytes: buffer.subarray(0, readInto(fd, buffer, size)), spare: buffer };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * V8's data from a cache file and whether an answering run wrote it, or undefined when there is none or it is not
 * this bundle's, whole. `spare`: memory the caller no longer needs, to read the file into (`readWhole`).
 */
function readCache(file, id, spare) {
  let data;
  try {
    data = readWhole(file, spare);
  } catch {
    return undefined;
  }
  const idEnd = CACHE_MAGIC.length + CACHE_ID_LENGTH;
  const digestStart = idEnd + 1 + CACHE_PAD.length;
  const headerLength = digestStart + CACHE_DIGEST_LENGTH;
  if (data.length <= headerLength || data.toString('latin1', 0, idEnd) !== CACHE_MAGIC + id) return undefined;
  const flag = data.toString('latin1', idEnd, idEnd + 1);
  if (flag !== CACHE_COMPLETE && flag !== CACHE_PARTIAL) return undefined;
  if (data.toString('latin1', idEnd + 1, digestStart) !== CACHE_PAD) return undefined;
  const payload = data.subarray(headerLength);
  if (!sha1(payload).equals(data.subarray(digestStart, headerLength))) return undefined;
  return { payload, complete: flag === CACHE_COMPLETE };
}

/** Writes a cache file atomically (a reader sees the old file or the new one) and keeps the folder small. */
function writeCache(dir, file, id, complete, payload) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const header = CACHE_MAGIC + id + (complete ? CACHE_COMPLETE : CACHE_PARTIAL) + CACHE_PAD;
    fs.writeFileSync(temp, Buffer.concat([Buffer.from(header, 'latin1'), sha1(payload), payload]), {
      mode: 0o600,
    });
    fs.renameSync(temp, file);
    pruneCache(dir);
  } catch {
    // A cache is an optimisation: never a reason to fail.
    try {
      fs.rmSync(temp, { force: true });
    } catch {}
  }
}

/** Removes all but the most recently written cache files (other bundles, Node versions and commands). */
function pruneCache(dir) {
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => ({ name, written: fs.statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.written - a.written);
  for (const { name } of files.slice(CACHE_FILES_KEPT)) fs.rmSync(path.join(dir, name), { force: true });
}

/**
 * Node's module class, as this file's own `module` was made by it: `require('node:module')` would load the public
 * module and the three it brings (the ES module loader, source maps: 0.3 ms of CPU and 15 page faults a start,
 * docs/benchmarks.md "The fast paths' built-in modules and bundles"), which no fast path uses otherwise.
 */
function moduleClass() {
  const own = module.constructor;
  return typeof own === 'function' && typeof own.wrap === 'function' && typeof own._nodeModulePaths === 'function'
    ? own
    : require('node:module');
}

/**
 * A bundle's exports, compiled from this user's code cache when there is a valid one, and `answered()`, which a
 * small bundle's caller calls when the bundle answered alone. The whole CLI's bundle is complete for every command but
 * `run` (`runWholeCli`): each command keeps a cache file of its own.
 */
function loadBundle(name, { small = false, variant = '', room = 1 } = {}) {
  const vm = require('node:vm');
  const Module = moduleClass();
  const bundle = path.join(bundleDir, name);
  // Latin-1: the bundle is ASCII (scripts/bundle-lib.mjs checks), and a one-byte string is the cheapest to read and
  // decode (UTF-8 decoding of the whole bundle cost a few percent of each start).
  const { bytes, spare } = room > 1 ? readWithRoom(bundle, room) : { bytes: readWhole(bundle) };
  const text = bytes.toString('latin1');
  // The bundles are written already wrapped (scripts/bundle-lib.mjs, `LOADER_WRAPPER`): compiled as read, with no
  // second copy to make and flatten (for the whole CLI's 1.8 MB, 6 ms of CPU a start). Others are wrapped here.
  const source = text.startsWith(LOADER_WRAPPER) ? text : Module.wrap(text.replace(/^#!.*/, ''));
  const dir = cacheDirectory(process.env);
  // The id from the file as built (its trailer), not from the wrapped text: a small bundle wrapped here ends past it.
  const id = dir && bundleId(text);
  const file = dir && path.join(dir, cacheFileName(id, variant));
  // A bundle's bytes are free once decoded: its cache file is read into their memory.
  const cached = dir ? readCache(file, id, small ? undefined : (spare ?? bytes)) : undefined;
  const script = new vm.Script(source, {
    filename: bundle,
    ...(cached ? { cachedData: cached.payload } : {}),
  });
  const outcome = { answered: !small, saved: false };
  const flagsAtLoad = runtimeV8Flags;
  // Written at exit, so the cache also holds the functions this run compiled, or before the V8 flags change (a small
  // bundle that hands over to the whole CLI, `tierUpLater`): data written after would be rejected at the next load.
  const save = () => {
    if (!dir || outcome.saved || runtimeV8Flags !== flagsAtLoad) return;
    outcome.saved = true;
    const stale = !cached || script.cachedDataRejected || (outcome.answered && !cached.complete);
    if (stale) writeCache(dir, file, id, outcome.answered, script.createCachedData());
  };
  if (dir) process.once('exit', save);
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  const localRequire = (request) => mod.require(request);
  localRequire.resolve = (request) => Module._resolveFilename(request, mod);
  script.runInThisContext()(mod.exports, localRequire, mod, bundle, path.dirname(bundle));
  return {
    exports: mod.exports,
    answered: () => {
      outcome.answered = true;
    },
    save,
  };
}

/** The bundled CLI's exports (runCli). */
function loadCli() {
  return loadBundle('tollgate.cjs').exports;
}

/**
 * The whole CLI for a `run`. Its cache file counts as complete only once the CLI says the run examined a change set
 * (`codeCacheComplete`): one written by a run that did not (nothing changed, every validator off) lacked what a first
 * run compiles, about 4 % of its CPU each time, and the next run that does replaces it once, like a small bundle's.
 */
function runWholeCli(handoff) {
  const cli = loadBundle('tollgate.cjs', { small: true });
  cli.exports.runCli(process.argv, { ...handoff, codeCacheComplete: cli.answered });
}

/**
 * V8's interrupt budget for the short, busy commands, set before the whole CLI's bundle is compiled. V8 11 (Node 20)
 * optimizes a function once it has run through this many bytes of bytecode a few times over (66 KiB by default): in a
 * process that lasts about a second, that sends hundreds of functions run a few times each to the optimizing compiler,
 * whose threads took a fifth to a third of Node's CPU. A first `run` (0.15-0.25 s of 0.6 s) gets 1 MiB: only the truly
 * hot functions, the scanner's keyword pass among them, are optimized (7 compilations in place of 64). `scan --history`
 * (thousands of small texts) gets four times the default, which still optimizes its loops early. See
 * docs/benchmarks.md, "The optimizing compiler's share of a first run" and "V8's tiering". Only when the command line
 * and NODE_OPTIONS leave the budget alone, and only on a V8 that has the flag (V8 12 and later count invocations
 * instead, `HISTORY_TURBOFAN`, and print an error for a flag they do not know). The flags are part of the code cache's
 * name (`flagsTag`): V8 rejects a cache written under other flags.
 */
const RUN_INTERRUPT_BUDGET = 1024 * 1024;
const HISTORY_INTERRUPT_BUDGET = 270_000;
let runtimeV8Flags = '';

/**
 * Node's built-in modules that the whole CLI loads on these commands' every run. Node compiles a built-in module from
 * a code cache made under V8's default flags, which V8 rejects once a flag has changed: loaded after the budget is
 * set, these cost three times the CPU (about 20 ms of a first run), so they are loaded just before it.
 */
const RUN_BUILTINS = ['vm', 'module', 'crypto', 'fs/promises', 'readline/promises', 'timers/promises'];
/** What a scan loads besides (of files or of a history). */
const SCAN_BUILTINS = [...RUN_BUILTINS, 'os', 'child_process', 'worker_threads', 'perf_hooks'];

/**
 * A `run` also keeps V8's young generation at the size it starts with (1 MiB a semi-space): by default it doubles up
 * to 16 MiB as a first run's change set is read, and every page of that growth is faulted in once, at about 11 us a
 * page on the project's VMs (2.7 ms of CPU for each MiB first touched). Left at its start, a first run on 20k files /
 * 2k changed takes 4,500 fewer page faults (16,500 against 21,000) and 18 MB less memory, for more but smaller
 * scavenges (63 against 11, about the same total time: what survives is copied either way): 0.90x the CPU of the
 * whole first run (docs/benchmarks.md, "A first run's young generation"). `scan --history` gets it too, once its
 * reading begins (`youngGenerationKeptLater`): its 4,789 small texts of rails' v7.2.0..v8.0.0 grew the young
 * generation the same way, and kept it takes 5,500 fewer faults (18,900 against 24,400): 0.92x the CPU of the whole
 * process tree ("The history's young generation", session 27). Only the growth factor can still change once the heap
 * is made; it is left alone when the command line or NODE_OPTIONS names a semi-space flag.
 */
const RUN_YOUNG_GENERATION = '--semi-space-growth-factor=1';
/** V8's own growth factor (V8 11, 12 and 13 alike): what `youngGenerationKeptLater` sets back at exit. */
const DEFAULT_YOUNG_GENERATION = '--semi-space-growth-factor=2';
const SEMI_SPACE_FLAG = /--(max|min)[-_]semi[-_]space|--semi[-_]space[-_]growth/;

/**
 * V8 12 (Node 22) has no interrupt budget: a function goes to the optimizing compiler (TurboFan) after a number of
 * calls, 3,000 by default. `scan --history` asks for four times that, as it asks V8 11 for four times the budget, with
 * the same other flags: rails v7.2.0..v8.0.0 on Node 22 cost 0.88x the CPU (12 of 12 pairs lower; the count alone
 * 0.89-0.91x), 20 commits 0.86x, 150 commits 1.00x. Not on V8 13 (Node 24, Maglev on): the whole range 0.96x but 150
 * commits 1.03-1.05x (0 and 1 of 12 lower), and setting any flag at all, even one already on, cost 150 commits 1.03x
 * there (docs/benchmarks.md, "The table on Node 22 and 24", session 30). A first `run` gains nothing on V8 12 or 13
 * from its V8 11 flags (the young generation kept: 1.01x on Node 22, 0.99x on 24), so it sets none; later V8s, not
 * measured, are left alone.
 */
const HISTORY_TURBOFAN = '--invocation-count-for-turbofan=12000';
const V8_MAJOR = Number(process.versions.v8.split('.')[0]);
const TIER_UP_FLAG = /--interrupt[-_]budget|--invocation[-_]count[-_]for[-_]turbofan/;
const INLINING_FLAG = /--(no-)?turbo[-_]inlining|--max[-_]inlined/;
const REGEXP_FLAG = /--(no-)?regexp[-_]/;

function tierUpLater(budget, builtins, young = '', inlining = '', regexps = '', turbofan = '') {
  if (runtimeV8Flags || TIER_UP_FLAG.test(USER_NODE_FLAGS)) return;
  if (V8_MAJOR > 12 || (V8_MAJOR > 11 && !turbofan)) return;
  const set = [V8_MAJOR <= 11 ? `--interrupt-budget=${budget}` : turbofan];
  if (young && !SEMI_SPACE_FLAG.test(USER_NODE_FLAGS)) set.push(young);
  if (inlining && !INLINING_FLAG.test(USER_NODE_FLAGS)) set.push(inlining);
  if (regexps && !REGEXP_FLAG.test(USER_NODE_FLAGS)) set.push(regexps);
  try {
    for (const name of builtins) require(`node:${name}`);
    require('node:v8').setFlagsFromString(set.join(' '));
    runtimeV8Flags = set.join(' ');
  } catch {
    // Only the speed differs.
  }
}

/**
 * `scan --history` keeps the young generation at its size (`RUN_YOUNG_GENERATION`) only once the history's reading
 * begins: the scan's start-up (bundle, config, rules, scanner) keeps nearly all it allocates, and at 1 MiB a
 * semi-space that took 17 scavenges and a mark-compact before the first commit, against 6 left to grow. A range of 20
 * commits of rails cost 0.92x the CPU, one of 151 about 0.94x; the whole of v7.2.0..v8.0.0 about the same as before,
 * and the empty range trades those collections for the young generation's pages faulted in (0.90-1.05x with the load;
 * docs/benchmarks.md, "`scan --history`'s start-up", session 30). Returns what the scan's bundle calls as its first
 * log pass starts, or undefined when the history's flags were not set (`tierUpLater`) or the command line or
 * NODE_OPTIONS names a semi-space flag. V8 checks a code cache against its flags as they are when the cache is
 * written, at exit: the growth factor goes back to V8's default first, else every start would reject the cache and
 * write it again. So this runs before `loadBundle`, whose `exit` listener writes the cache.
 */
function youngGenerationKeptLater() {
  if (!runtimeV8Flags || SEMI_SPACE_FLAG.test(USER_NODE_FLAGS)) return undefined;
  const v8 = require('node:v8');
  let kept = false;
  process.once('exit', () => {
    if (kept) v8.setFlagsFromString(DEFAULT_YOUNG_GENERATION);
  });
  return () => {
    if (kept) return;
    try {
      v8.setFlagsFromString(RUN_YOUNG_GENERATION);
      kept = true;
    } catch {
      // Only the speed differs.
    }
  };
}

/**
 * Less inlining in V8's optimizing compiler for a `scan` (of files, and with `--history`): each scan thread is its own
 * isolate that optimizes the scanner's large hot functions again, and those concurrent compiles on V8's own threads
 * were most of a 256 MB scan's CPU beyond its scanning threads. Capping the bytecode inlined into one function at 300
 * (V8's default 920) cut the whole command's CPU by 7-9 % with no loss of wall, on 1 thread and on 2
 * (docs/benchmarks.md, "Where a second scan thread's time goes", session 22): a fixed cut per isolate, while the
 * optimized scanner costs about 5 % more per byte, so it pays up to roughly 500 MB a thread. The flag is V8's,
 * process-wide, so the scan's worker threads compile under it too. Only when the command line and NODE_OPTIONS leave
 * inlining alone, and only on V8 11 and 12 (Node 20, 22), where it was measured to help: on Node 22 the 256 MB scan
 * cost 0.93x the CPU (10 of 10 pairs lower), on Node 24 (Maglev, V8's mid tier, on) 0.99x (4 of 8; docs/benchmarks.md,
 * "The table on Node 22 and 24", session 30); the built-in modules the scan loads come first, as for the budget above.
 * `scan --history` sets it with its budget: its compiles on V8's threads took 0.175 s of CPU against 0.225 s, and the
 * main thread no more (rails v7.2.0..v8.0.0, "`scan --history`'s compiles and reading", session 28).
 */
const SCAN_INLINING = '--max-inlined-bytecode-size-cumulative=300';

/**
 * A scan of files on V8 11 (Node 20) caps inlining lower still, at 150: the 256 MB `scan --all` cost 0.979x the CPU
 * with two threads (12 of 12 pairs lower) and 0.965x with one thread (10 of 10), wall 0.98x both, quiet; a history scan
 * lost with it (1.012x, 4 of 12 lower) and keeps 300, as does Node 22, where 300 was measured (docs/benchmarks.md,
 * "The table on 2026-12-05, session 31").
 */
const FILE_SCAN_INLINING_V8_11 = '--max-inlined-bytecode-size-cumulative=150';

function inlineLess(builtins) {
  if (runtimeV8Flags || INLINING_FLAG.test(USER_NODE_FLAGS)) return;
  if (V8_MAJOR > 12) return;
  const inlining = V8_MAJOR <= 11 ? FILE_SCAN_INLINING_V8_11 : SCAN_INLINING;
  const regexps = V8_MAJOR <= 11 && !REGEXP_FLAG.test(USER_NODE_FLAGS);
  const flags = regexps ? `${inlining} ${REGEXPS_AT_FIRST_RUN}` : inlining;
  try {
    for (const name of builtins) require(`node:${name}`);
    require('node:v8').setFlagsFromString(flags);
    runtimeV8Flags = flags;
  } catch {
    // Only the speed differs.
  }
}

/**
 * A scan compiles each regular expression to machine code at its first run (by default V8 first compiles it to
 * bytecode and interprets that, and compiles it again at its second run). `scan --history`: the rules' expressions
 * each meet thousands of a history's small texts, so the bytecode and the interpreted first runs were work thrown
 * away; rails v7.2.0..v8.0.0 cost 0.96-0.99x the CPU (lower in 45 of 52 pairs), the empty range `v8.0.0..v8.0.0`
 * 1.00-1.02x (the start-up's own expressions, each run a few times, cost more to compile to machine code). Set with the
 * history's budget: set only once the reading begins, the expressions the start-up had compiled to bytecode were never
 * compiled again (V8 tiers them up only while the flag is on), and the whole range measured 1.00x (docs/benchmarks.md,
 * "`scan --history`'s start-up", session 30). A scan of files on V8 11 (Node 20), where each scanning thread's isolate
 * compiled the expressions twice: the 256 MB `scan --all` 0.984x the CPU with two threads (9 of 12 pairs lower), 0.994x
 * with one (7 of 10), a one-file scan 1.00x (20 pairs; session 31, helper "scan2cpu"). Only when the command line and
 * NODE_OPTIONS name no `--regexp-` flag.
 */
const REGEXPS_AT_FIRST_RUN = '--no-regexp-tier-up';

/**
 * Starts a fast path's git before its bundle is read (fast-start.cjs: a few kilobytes, compiled without the cache,
 * which needs node:crypto to check), so git works while Node loads the rest; undefined when it cannot, and the
 * fast path then starts its git itself.
 */
function startFastPath() {
  try {
    return require(path.join(bundleDir, 'fast-start.cjs')).startFastPath(process.argv);
  } catch {
    return undefined;
  }
}

/** A `tollgate run`'s snapshot, begun by fast-start.cjs; undefined when it cannot be (the run then begins its own). */
function startRunSnapshot() {
  try {
    return require(path.join(bundleDir, 'fast-start.cjs')).startRunSnapshot(process.argv);
  } catch {
    return undefined;
  }
}

/**
 * True when the current folder holds saved evidence (src/core/run/stamp-evidence.ts), from which a fast path's stamp
 * usually needs no git: the small bundle then takes its stamp itself, checked by code compiled from the code cache,
 * and fast-start.cjs (compiled each time, for a git started before node:crypto loads) is not loaded at all. Agents
 * start the hook and their runs in the repository's root, where the evidence is.
 */
function evidenceHere() {
  try {
    return fs.existsSync(path.join(process.cwd(), '.tollgate', 'stamp-evidence.json'));
  } catch {
    return false;
  }
}

/**
 * Tries a small bundle's `entry` (which resolves to null once it answered, else to what the whole CLI needs, such as
 * the payload it already read from stdin), then the whole CLI. An answer resolves only once it is written and its
 * run recorded, so the process exits then, with the answer's exit code: the teardown of the event loop and the heap
 * that a natural end runs cost a short process more than its answer's own work ('exit' listeners still run: the code
 * cache is written, locks are released).
 */
function fastPath(name, entry) {
  const direct = evidenceHere();
  const started = direct ? undefined : startFastPath();
  const small = loadBundle(name, { small: true, variant: direct ? '-direct' : '' });
  small.exports[entry](process.argv, started).then((handoff) => {
    if (handoff) {
      // Every `run` compiles the whole CLI with the same budget (its code cache is one file per command).
      if (args[0] === 'run') {
        small.save();
        tierUpLater(RUN_INTERRUPT_BUDGET, RUN_BUILTINS, RUN_YOUNG_GENERATION);
        runWholeCli(handoff);
      } else loadCli().runCli(process.argv, handoff);
    } else {
      small.answered();
      process.exit();
    }
  });
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V') && printVersion()) {
  // answered
} else if (args[0] === 'hook' && args[1] === 'stop') {
  fastPath('stop-hook.cjs', 'stopHookFast');
} else if (args.length === 1 && args[0] === 'run') {
  // Same shape: a plain `run` on a tree unchanged since a passing run is answered by its own small bundle.
  fastPath('run-fast.cjs', 'runFast');
} else if (args[0] === 'run') {
  // Any other run takes a snapshot: its `git add` starts before the CLI loads, and the run takes it over.
  const early = startRunSnapshot();
  tierUpLater(RUN_INTERRUPT_BUDGET, RUN_BUILTINS, RUN_YOUNG_GENERATION);
  runWholeCli(early ? { early } : {});
} else {
  const history = isHistoryScan(args);
  if (history) {
    tierUpLater(HISTORY_INTERRUPT_BUDGET, SCAN_BUILTINS, '', SCAN_INLINING, REGEXPS_AT_FIRST_RUN, HISTORY_TURBOFAN);
  } else if (args[0] === 'scan') inlineLess(SCAN_BUILTINS);
  // A scan's own bundle: half the whole CLI's bytes to read, deserialize and evaluate. Its help stays with the whole
  // CLI, which lists the validators' names in help texts.
  if (args[0] === 'scan' && !asksForHelp(args)) {
    const historyReadingStarts = history ? youngGenerationKeptLater() : undefined;
    loadBundle('scan.cjs', { room: 2 }).exports.runCli(process.argv, { historyReadingStarts });
  } else if (args[0] === 'hook' && args[1] === 'pre-commit' && !asksForHelp(args)) {
    // What git runs before every commit: the staged files through the scanner, which the scan's bundle holds; the
    // whole CLI cost each commit its 1.8 MB (docs/benchmarks.md, "`tollgate hook pre-commit`", session 30).
    loadBundle('scan.cjs', { room: 2 }).exports.runCli(process.argv);
  } else loadCli().runCli(process.argv);
}
