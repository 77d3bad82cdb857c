#!/usr/bin/env node
// What every secret scan pays before it reads its first byte, and what that start costs a small scan:
//   start   a fresh process that loads the built-in rules and builds the scanner, as the CLI's bundle and each scan
//           worker do (this bench bundles src/ the same way, without the code cache unless --code-cache, with which
//           the probe is compiled through one as bin/tollgate.cjs compiles the CLI): its CPU from process start to
//           "rules loaded" (the rule modules' evaluation) and to "scanner ready" (keyword automata, compiled rules),
//           against `node -e 0`'s whole CPU
//   small   `tollgate scan` of a 2 MB JavaScript file (the start of TypeScript's own typescript.js), whole process,
//           against secretlint 13 (`--format compact`, bench/secretlint13.mjs) on the same file and `node -e 0`
//   empty   `tollgate scan` of an empty file: the CLI's whole start with the scanner, against `node -e 0`
//   warm    in one process with the scanner built (bundled as the CLI is): the CPU of the first scan of 2 MB of JSON
//           whose values look like identifiers (`bench/scale.mjs dense`'s third document) and of the same scan once
//           warm (the median of 4 more): what a CLI scan pays before the engine has compiled its loops
// Each is paired (taking turns) and printed with the load average before and after. `--against DIR` adds the same
// figures for another built checkout (its bin/tollgate.cjs and src/), run in turn with this one: before/after.
//
//   npm run build && node bench/scanner-start.mjs [start|small|empty|warm ...] [--runs N] [--against DIR] [--code-cache] [--json]
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { exitWithUsageIfAsked, median, printResult } from './measure.mjs';
import { ensureSecretlint13 } from './secretlint13.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(flag('--runs') ?? 5);
const codeCache = args.includes('--code-cache');
const against = flag('--against') && resolve(flag('--against'));
const wanted = args.filter((arg, index) => !arg.startsWith('-') && !['--runs', '--against'].includes(args[index - 1]));
const only = (name) => wanted.length === 0 || wanted.includes(name);
const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-scanner-start-'));
const load = () => `load ${loadavg()[0].toFixed(2)}`;

/** Wall and CPU seconds (user + system, /usr/bin/time) of one process. */
function timed(command, commandArgs, options = {}) {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', command, ...commandArgs], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    ...options,
  });
  const wall = (performance.now() - started) / 1000;
  const [user, system] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + system, result };
}

/** The medians of `runs` rounds of each runner, taking turns so that outside load falls on all alike. */
function paired(runners) {
  const results = runners.map(() => []);
  for (const run of runners) run(); // warm: the page cache and the CLI's code cache
  for (let round = 0; round < runs; round++) for (const [index, run] of runners.entries()) results[index].push(run());
  return results.map((list) => {
    const out = {};
    for (const key of Object.keys(list[0]).filter((name) => typeof list[0][name] === 'number'))
      out[key] = median(list.map((r) => r[key]));
    return out;
  });
}

/** esbuild's options for a probe of `checkout`'s src/, bundled as the CLI is (one minified CommonJS file). */
function probeBuild(checkout) {
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    minify: true,
    format: 'cjs',
    logLevel: 'error',
    preserveSymlinks: true,
    absWorkingDir: checkout,
    mainFields: ['module', 'main'],
    define: { 'import.meta.url': '__probeUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "var __probeUrl = require('node:url').pathToFileURL(__filename).href;" },
  };
}

/**
 * A probe bundled from `checkout`'s src/ as the CLI is (one minified CommonJS file): it prints its process's CPU
 * milliseconds when its code starts, once the rules' modules are evaluated and once the scanner is built.
 */
async function probeOf(checkout, name) {
  const outfile = join(work, `${name}-probe.cjs`);
  // What a scan loads: the rules' table where the checkout has one (its provider-named rules made at their first hit),
  // else every rule made (rules/index.ts's builtinRules, which reading makes them all).
  const table = existsSync(join(checkout, 'src/secrets/rules/table.ts'))
    ? `const { builtinRuleTable: builtinRules } = await import('./src/secrets/rules/table.ts');`
    : `const { builtinRules } = await import('./src/secrets/rules/index.ts');`;
  await build({
    ...probeBuild(checkout),
    stdin: {
      contents: `
        const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
        const started = cpu();
        (async () => {
          const { secretsOptionsSchema } = await import('./src/secrets/options.ts');
          const { loadScanner } = await import('./src/secrets/load-rules.ts');
          ${table}
          const loaded = cpu();
          const { scanner } = await loadScanner(process.cwd(), (typeof secretsOptionsSchema === 'function' ? secretsOptionsSchema() : secretsOptionsSchema).parse({}));
          const ready = cpu();
          console.log(JSON.stringify({ started, loaded, ready, rules: builtinRules.length, same: scanner.ruleCount ?? scanner.rules.length }));
        })();`,
      resolveDir: checkout,
      loader: 'ts',
    },
    outfile,
  });
  const dir = join(work, `${name}-cwd`);
  mkdirSync(dir);
  // --code-cache: through V8's code cache, as bin/tollgate.cjs loads the CLI (the first, warming run writes it).
  const command = codeCache ? [codeCacheLoader(), outfile] : [outfile];
  return () => {
    const run = timed(process.execPath, command, { cwd: dir });
    if (run.result.status !== 0) throw new Error(`${name} probe exited ${run.result.status}: ${run.result.stderr}`);
    const probe = JSON.parse(run.result.stdout);
    return { ...run, modules: probe.loaded - probe.started, scanner: probe.ready - probe.loaded, rules: probe.rules };
  };
}

/** A loader that compiles a bundle through a code cache beside it, as bin/tollgate.cjs does (without its checks). */
function codeCacheLoader() {
  const loader = join(work, 'code-cache-loader.cjs');
  writeFileSync(
    loader,
    `const fs = require('node:fs'), vm = require('node:vm'), Module = require('node:module'), path = require('node:path');
const file = process.argv[2], cacheFile = file + '.code-cache';
const source = fs.readFileSync(file, 'latin1');
let cached;
try { cached = fs.readFileSync(cacheFile); } catch {}
const script = new vm.Script(Module.wrap(source), { filename: file, ...(cached ? { cachedData: cached } : {}) });
process.once('exit', () => { if (!cached || script.cachedDataRejected) fs.writeFileSync(cacheFile, script.createCachedData()); });
const mod = new Module(file, module);
mod.filename = file;
mod.paths = Module._nodeModulePaths(path.dirname(file));
script.runInThisContext()(mod.exports, (request) => mod.require(request), mod, file, path.dirname(file));
`,
  );
  return loader;
}

/** The first `bytes` of TypeScript's compiler, cut at a line's end: real, ordinary JavaScript. */
function smallFile(path, bytes) {
  const buffer = Buffer.alloc(bytes);
  const fd = openSync(join(root, 'node_modules/typescript/lib/typescript.js'), 'r');
  const read = readSync(fd, buffer, 0, bytes, 0);
  closeSync(fd);
  writeFileSync(path, buffer.subarray(0, buffer.lastIndexOf(10, read - 1) + 1));
}

/**
 * A probe bundled from `checkout`'s src/: it builds the shared scanner, then prints the CPU milliseconds of five scans
 * of `file` in turn.
 */
async function warmProbeOf(checkout, name, file) {
  const outfile = join(work, `${name}-warm.cjs`);
  await build({
    ...probeBuild(checkout),
    stdin: {
      contents: `
        const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
        const { sharedSecretScanner } = require('./src/secrets/redact.ts');
        const text = require('node:fs').readFileSync(${JSON.stringify(file)}, 'latin1');
        const scanner = sharedSecretScanner();
        const times = [];
        for (let round = 0; round < 5; round++) {
          const started = cpu();
          scanner.scanText(text, { path: 'identifiers.json' });
          times.push(cpu() - started);
        }
        console.log(JSON.stringify(times));`,
      resolveDir: checkout,
      loader: 'ts',
    },
    outfile,
  });
  return () => {
    const run = timed(process.execPath, [outfile]);
    if (run.result.status !== 0)
      throw new Error(`${name} warm probe exited ${run.result.status}: ${run.result.stderr}`);
    const [first, ...rest] = JSON.parse(run.result.stdout);
    return { ...run, first, warm: median(rest) };
  };
}

/** `bench/scale.mjs dense`'s identifier JSON: `"token_2": "cfg_access_key_2"` on one line, about `bytes` of it. */
function identifierJson(path, bytes) {
  const keys = ['password', 'api_key', 'token', 'secret', 'client_secret', 'auth_token', 'access_key', 'private_key'];
  const parts = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const part = `"${keys[i % keys.length]}_${i}": "cfg_${keys[(i + 3) % keys.length]}_${i}",`;
    parts.push(part);
    size += part.length + 1;
  }
  writeFileSync(path, `{${parts.join(' ')} "end": 1}\n`);
}

const scanDir = join(work, 'scan');
mkdirSync(scanDir);
smallFile(join(scanDir, 'small.js'), 2_000_000);
writeFileSync(join(scanDir, 'empty.txt'), '');
const rc = join(scanDir, '.secretlintrc.json');
writeFileSync(rc, JSON.stringify({ rules: [{ id: '@secretlint/secretlint-rule-preset-recommend' }] }));

function tollgateScan(checkout, file) {
  return () => {
    const run = timed(process.execPath, [join(checkout, 'bin/tollgate.cjs'), 'scan', file, '--format', 'json'], {
      cwd: scanDir,
    });
    if (run.result.status !== 0) throw new Error(`tollgate scan exited ${run.result.status}: ${run.result.stderr}`);
    if (JSON.parse(run.result.stdout).scannedFiles !== 1) throw new Error(`tollgate scan did not scan ${file}`);
    return run;
  };
}

const node = () => timed(process.execPath, ['-e', '0']);
const checkouts = [['this', root], ...(against ? [['against', against]] : [])];
const ms = (seconds) => `${(seconds * 1000).toFixed(0)} ms`;

try {
  // start: the scanner's own start, in a process of its own
  if (only('start')) {
    const before = load();
    const probes = [];
    for (const [name, checkout] of checkouts) probes.push(await probeOf(checkout, name));
    const [baseline, ...figures] = paired([node, ...probes]);
    figures.forEach((figure, index) => {
      const name = checkouts[index][0];
      printResult({
        name: 'scanner-start',
        line:
          `start${codeCache ? ', code cache' : ''} (${name}): ${figure.rules} rules loaded ${figure.modules.toFixed(0)} ms CPU, scanner ready ` +
          `${figure.scanner.toFixed(0)} ms CPU more (${(figure.modules + figure.scanner).toFixed(0)} ms in all); ` +
          `whole process ${ms(figure.cpu)} CPU, ${(figure.cpu / baseline.cpu).toFixed(2)}x node -e 0's ` +
          `${ms(baseline.cpu)} (${before} before, ${load()} after)`,
        values: { checkout: name, ...figure, nodeCpu: baseline.cpu, loadBefore: before, loadAfter: load() },
      });
    });
  }
  // warm: the identifier JSON's first scan and its warm scans, in one process per checkout
  if (only('warm')) {
    const before = load();
    const file = join(scanDir, 'identifiers.json');
    identifierJson(file, 2_000_000);
    const probes = [];
    for (const [name, checkout] of checkouts) probes.push(await warmProbeOf(checkout, name, file));
    paired(probes).forEach((figure, index) => {
      const name = checkouts[index][0];
      printResult({
        name: 'scanner-start-warm',
        line:
          `warm (${name}): 2 MB of identifier JSON, first scan ${figure.first.toFixed(0)} ms CPU, warm ` +
          `${figure.warm.toFixed(0)} ms CPU (${(figure.first / figure.warm).toFixed(2)}x) (${before} before, ${load()} after)`,
        values: { checkout: name, first: figure.first, warm: figure.warm, loadBefore: before, loadAfter: load() },
      });
    });
  }
  // small and empty: what users run, against secretlint 13 and node -e 0
  const secretlint = only('small') ? ensureSecretlint13(root, { fallback: true }) : undefined;
  const theirs = () => {
    // On the bench's Node, as tollgate is (the script's `#!/usr/bin/env node` would take PATH's).
    const run = timed(process.execPath, [secretlint.bin, '--format', 'compact', '--secretlintrc', rc, 'small.js'], {
      cwd: scanDir,
      env: { ...process.env, NODE_PATH: secretlint.nodePath },
    });
    if (run.result.status !== 0) throw new Error(`secretlint exited ${run.result.status}: ${run.result.stdout}`);
    return run;
  };
  for (const [file, what] of [
    ['small.js', '2 MB of JavaScript'],
    ['empty.txt', 'an empty file'],
  ]) {
    if (!only(file === 'small.js' ? 'small' : 'empty')) continue;
    const before = load();
    const peer = file === 'small.js';
    const [baseline, ...figures] = paired([
      node,
      ...(peer ? [theirs] : []),
      ...checkouts.map(([, checkout]) => tollgateScan(checkout, file)),
    ]);
    const secretlintFigure = peer ? figures.shift() : undefined;
    figures.forEach((figure, index) => {
      const name = checkouts[index][0];
      const versus = secretlintFigure
        ? `; ${(figure.wall / secretlintFigure.wall).toFixed(2)}x wall, ${(figure.cpu / secretlintFigure.cpu).toFixed(2)}x ` +
          `CPU of secretlint ${secretlint.version} --format compact (${secretlintFigure.wall.toFixed(2)} s wall, ` +
          `${secretlintFigure.cpu.toFixed(2)} s CPU)`
        : '';
      printResult({
        name: 'scanner-start-scan',
        line:
          `${file === 'small.js' ? 'small' : 'empty'} (${name}): tollgate scan of ${what} ${figure.wall.toFixed(2)} s wall, ` +
          `${figure.cpu.toFixed(2)} s CPU${versus}; ${(figure.wall / baseline.wall).toFixed(2)}x wall, ` +
          `${(figure.cpu / baseline.cpu).toFixed(2)}x CPU of node -e 0 (${before} before, ${load()} after)`,
        values: {
          checkout: name,
          file,
          wall: figure.wall,
          cpu: figure.cpu,
          ...(secretlintFigure ? { secretlintWall: secretlintFigure.wall, secretlintCpu: secretlintFigure.cpu } : {}),
          nodeWall: baseline.wall,
          nodeCpu: baseline.cpu,
          loadBefore: before,
          loadAfter: load(),
        },
      });
    });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
