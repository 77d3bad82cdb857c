#!/usr/bin/env node
'use strict';
// The `tollgate` command. Agents run tollgate after every turn, so what it reads before answering is kept small:
// - `--version` is read from package.json here;
// - `hook stop` first tries the stop hook's fast path, a small bundle of its own (dist/bundle/cli/stop-hook.cjs),
//   which hands the stop to the whole CLI when it cannot answer alone;
// - everything else loads the bundled CLI (dist/bundle/cli/tollgate.cjs) through V8's code cache: compiling the whole
//   bundle on each start cost more than most runs' own work. The cache is private to this user (a 0700 folder under
//   the temp dir), keyed by the bundle's size and mtime, checked by V8 against the source, and skipped entirely with
//   TOLLGATE_NO_CODE_CACHE=1.
const fs = require('node:fs');
const path = require('node:path');

const bundleDir = path.join(__dirname, '..', 'dist', 'bundle', 'cli');
const args = process.argv.slice(2);

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

/** The bundled CLI's exports (runCli), compiled from this user's code cache when there is a valid one. */
function loadCli() {
  const os = require('node:os');
  const vm = require('node:vm');
  const Module = require('node:module');
  const bundle = path.join(bundleDir, 'tollgate.cjs');
  // Latin-1: the bundle is ASCII (scripts/bundle-lib.mjs checks), and a one-byte string is the cheapest to read and
  // decode (UTF-8 decoding of the whole bundle cost a few percent of each start).
  const source = fs.readFileSync(bundle, 'latin1').replace(/^#!.*/, '');
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const cacheDir = path.join(os.tmpdir(), `tollgate-code-cache-${uid}`);
  const stat = fs.statSync(bundle);
  const cacheFile = path.join(cacheDir, `${stat.size}-${Math.floor(stat.mtimeMs)}.bin`);
  const useCache = process.env.TOLLGATE_NO_CODE_CACHE !== '1' && ownedByUs(cacheDir);
  let cachedData;
  if (useCache) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  if (useCache && (!cachedData || script.cachedDataRejected)) {
    // Written at exit, so the cache also holds the functions this run compiled.
    process.once('exit', () => {
      try {
        fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temp, cacheFile);
      } catch {
        // A cache is an optimisation: never a reason to fail.
      }
    });
  }
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(path.dirname(bundle));
  const localRequire = (id) => mod.require(id);
  localRequire.resolve = (request) => Module._resolveFilename(request, mod);
  script.runInThisContext()(mod.exports, localRequire, mod, bundle, path.dirname(bundle));
  return mod.exports;
}

function ownedByUs(dir) {
  try {
    const info = fs.statSync(dir);
    // Someone else's folder (or one others may write) is never read: a code cache is code.
    return info.isDirectory() && (typeof process.getuid !== 'function' || info.uid === process.getuid()) && (info.mode & 0o022) === 0;
  } catch {
    return true; // absent: created below, ours
  }
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V') && printVersion()) {
  // answered
} else if (args[0] === 'hook' && args[1] === 'stop') {
  // Resolves to null once answered, else to what the whole CLI needs (the payload it already read from stdin).
  require(path.join(bundleDir, 'stop-hook.cjs'))
    .stopHookFast(process.argv)
    .then((handoff) => handoff && loadCli().runCli(process.argv, handoff));
} else {
  loadCli().runCli(process.argv);
}
