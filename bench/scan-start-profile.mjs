#!/usr/bin/env node
// Where a one-file `tollgate scan` spends its CPU before (and while) it scans: the CLI bundled as `npm run build`
// bundles it, but with line breaks kept (so a CPU profile's positions map back through the source map to src/), laid
// out beside a copy of bin/tollgate.cjs so that it loads through the code cache as users run it. Each run is
// `node --cpu-prof bin/tollgate.cjs scan one.txt` outside git, with its own TOLLGATE_CACHE_DIR (warmed first); every
// sample is given to the nearest frame on its stack that says what it is doing:
//   - a module's top level (esbuild wraps each lazily loaded module in a function of its own): `evaluate <group>`;
//   - a function of the scanner's set-up (the keyword automata, the rule table), of config loading or of the output;
//   - else the source file of its leaf frame, or V8's own entries ((garbage collector), (program)).
// Prints each group's median share and CPU milliseconds over the runs, the process's CPU (/usr/bin/time) and the load
// average before and after. `--against DIR` profiles another checkout's src/ the same way, in turn.
//
//   node bench/scan-start-profile.mjs [--runs N] [--against DIR] [--file PATH] [--top N] [--files] [--inside LABEL]
//                                     [--keep] [--json]
// --files: each module by its file, not its folder; --inside LABEL: that label split by leaf function and line;
// --keep: leave the bundles and profiles in the temp folder (printed).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { appendBundleHash, cjsImportMeta, common, SCAN_BUNDLE } from '../scripts/bundle-lib.mjs';
import { exitWithUsageIfAsked, median, printResult } from './measure.mjs';

exitWithUsageIfAsked(import.meta.url);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const runs = Number(flag('--runs') ?? 7);
const top = Number(flag('--top') ?? 25);
const inside = flag('--inside');
const against = flag('--against') && resolve(flag('--against'));
const work = mkdtempSync(join(tmpdir(), 'tollgate-bench-scan-start-profile-'));
const load = () => loadavg()[0].toFixed(2);

/** The CLI of `checkout`'s src/, bundled as scripts/bundle-lib.mjs bundles it, with its line breaks kept. */
async function layout(checkout, name) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'dist/bundle/cli'), { recursive: true });
  cpSync(join(checkout, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(checkout, 'package.json'), join(dir, 'package.json'));
  // bin runs `scan` from the scan's own bundle where the checkout has one (scripts/bundle-lib.mjs, `SCAN_BUNDLE`).
  const own = existsSync(join(checkout, SCAN_BUNDLE.entry));
  const file = own ? SCAN_BUNDLE.file : 'tollgate.cjs';
  // The CLI's build options, unminified where a profile needs it: names and line breaks kept for the source map.
  await build({
    ...common,
    ...cjsImportMeta,
    minify: false,
    minifyIdentifiers: true,
    minifySyntax: true,
    logLevel: 'error',
    absWorkingDir: checkout,
    sourcemap: 'linked',
    plugins: [...common.plugins, ...(own ? SCAN_BUNDLE.plugins : [])],
    entryPoints: [join(checkout, own ? SCAN_BUNDLE.entry : 'src/cli/start.ts')],
    outfile: join(dir, 'dist/bundle/cli', file),
    format: 'cjs',
  });
  const bundle = join(dir, 'dist/bundle/cli', file);
  appendBundleHash(bundle);
  const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));
  return { name, dir, bundle, map, cache: join(dir, 'cache') };
}

/** The group of a source file of the bundle (`src/secrets/rules/aws.ts` → `rules`, `node_modules/zod/…` → `zod`). */
function groupOf(source) {
  const path = source.replace(/^.*?(?=(src|node_modules)\/)/, '');
  if (path.startsWith('node_modules/'))
    return path.split('/')[1].startsWith('@') ? path.split('/').slice(1, 3).join('/') : path.split('/')[1];
  if (/^src\/secrets\/rules\//.test(path)) return 'rules';
  if (
    /^src\/secrets\/(rule-builders|generic-gates|sample-tokens|provider-prefixes|published-test-keys)\.ts$/.test(path)
  )
    return 'rules';
  if (process.argv.includes('--files')) return path;
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : path;
}

/** What the scanner's set-up, config loading and output are, by function and file: the nearest on a stack wins. */
const PHASES = [
  { phase: 'automaton build', test: (file) => /src\/secrets\/(prefilter|name-keywords)\.ts$/.test(file) },
  {
    phase: 'scanner set-up (rule table, gates)',
    test: (file) =>
      /src\/secrets\/(scanner|compiled-rule|gate-checks|name-gate|gate-check-reaches|redact|load-rules)\.ts$/.test(
        file,
      ),
  },
  { phase: 'config loading', test: (file) => /src\/core\/config/.test(file) },
  { phase: 'output', test: (file) => /src\/(report|cli\/io)/.test(file) },
];

/** Per group, the CPU milliseconds of one profile. */
function breakdown(profile, map, bundle) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const sourceOf = (frame) => {
    if (!frame.url.endsWith(bundle.split('/').pop())) return undefined;
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
    return entry?.originalSource;
  };
  // Outside the bundle: the loader's step (bin/tollgate.cjs) the sample is under, and the leaf's function.
  const outsideBundle = (id) => {
    const leaf = byId.get(id).callFrame;
    const leafName = leaf.functionName || (leaf.url === '' ? '(native)' : '(anonymous)');
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (frame.url.endsWith('/bin/tollgate.cjs')) return `bin ${frame.functionName || '(top level)'}: ${leafName}`;
      if (frame.url.startsWith('file:') && frame.url.endsWith('.cjs') && sourceOf(frame) !== undefined) break;
    }
    if (/^\(/.test(leafName) && leaf.url === '') return leafName;
    return `node ${leaf.url.startsWith('node:') ? leaf.url : ''} ${leafName}`.replace(/ +/g, ' ');
  };
  const labelCache = new Map();
  // esbuild's helpers: `var h = (e, t, n) => () => {` (a lazy ES module) and `var R = (e, t) => () => {` (CommonJS).
  const helpers = new Set();
  for (const [line, text] of readFileSync(bundle, 'latin1').split('\n').slice(0, 40).entries()) {
    const helper = /^(?:var |, )?\w+ = \([\w, ]+\) => \(\) => \{/.exec(text);
    if (helper) helpers.add(`${line}:${text.indexOf('() => {')}`);
  }
  const labelOf = (id) => {
    if (labelCache.has(id)) return labelCache.get(id);
    let label;
    for (let at = id; at !== undefined && label === undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      const source = sourceOf(frame);
      if (source === undefined) continue;
      // esbuild's lazily evaluated module: a function that its helper (`__esm`, `__commonJS`) calls once.
      const caller = parent.has(at) ? byId.get(parent.get(at)).callFrame : undefined;
      if (caller && helpers.has(`${caller.lineNumber}:${caller.columnNumber}`) && caller.url === frame.url) {
        label = `evaluate ${groupOf(source)}`;
        break;
      }
      const phase = PHASES.find((p) => p.test(source));
      if (phase) label = phase.phase;
    }
    if (label === undefined) {
      const frame = byId.get(id).callFrame;
      const source = sourceOf(frame);
      label = source ? `run ${groupOf(source)}` : outsideBundle(id);
    }
    labelCache.set(id, label);
    return label;
  };
  const ms = new Map();
  const { samples, timeDeltas } = profile;
  for (let index = 0; index < samples.length; index++) {
    let label = labelOf(samples[index]);
    if (inside !== undefined && label === inside) {
      const leaf = byId.get(samples[index]).callFrame;
      const source = sourceOf(leaf);
      const entry = source && map.findEntry(leaf.lineNumber, leaf.columnNumber);
      label = `${label} > ${leaf.functionName || '(anonymous)'} ${source ? `${source.replace(/^.*?(?=(src|node_modules)\/)/, '')}:${entry.originalLine + 1}` : leaf.url}`;
    }
    // A sample's delta is the time before the next one (V8 records the gap before each sample).
    const delta = (timeDeltas[index + 1] ?? 0) / 1000;
    ms.set(label, (ms.get(label) ?? 0) + delta);
  }
  ms.delete('(idle)');
  return ms;
}

function profileRun(side, file) {
  const profiles = join(side.dir, 'profiles');
  rmSync(profiles, { recursive: true, force: true });
  const env = { ...process.env, TOLLGATE_CACHE_DIR: side.cache };
  delete env.NODE_EXTRA_CA_CERTS;
  const result = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%U %S %e',
      process.execPath,
      '--cpu-prof',
      '--cpu-prof-dir',
      profiles,
      join(side.dir, 'bin/tollgate.cjs'),
      'scan',
      file,
    ],
    { cwd: dirname(file), env, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`${side.name}: scan exited ${result.status}: ${result.stderr}`);
  const [user, system, wall] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  const name = readdirSync(profiles).find((entry) => entry.endsWith('.cpuprofile'));
  const profile = JSON.parse(readFileSync(join(profiles, name), 'utf8'));
  return { cpu: (user + system) * 1000, wall: wall * 1000, groups: breakdown(profile, side.map, side.bundle) };
}

const file = flag('--file') ? resolve(flag('--file')) : join(work, 'one/one.txt');
if (!flag('--file')) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, 'greeting = "hello"\n');
}
const sides = [await layout(root, 'this')];
if (against) sides.push(await layout(against, 'against'));
const loadBefore = load();
for (const side of sides) for (let warm = 0; warm < 2; warm++) profileRun(side, file); // the code cache, the page cache
const results = sides.map(() => []);
for (let round = 0; round < runs; round++)
  for (const [index, side] of sides.entries()) results[index].push(profileRun(side, file));
const loadAfter = load();

for (const [index, side] of sides.entries()) {
  const list = results[index];
  const labels = new Set(list.flatMap((run) => [...run.groups.keys()]));
  const rows = [...labels].map((label) => ({ label, ms: median(list.map((run) => run.groups.get(label) ?? 0)) }));
  rows.sort((a, b) => b.ms - a.ms);
  const profiled = median(list.map((run) => [...run.groups.values()].reduce((a, b) => a + b, 0)));
  const cpu = median(list.map((run) => run.cpu));
  console.log(
    `${side.name === 'this' ? relative(process.cwd(), root) || '.' : against}: tollgate scan <one line> outside git, ${runs} runs, process CPU ${cpu.toFixed(0)} ms (median), profiled ${profiled.toFixed(0)} ms, wall ${median(list.map((run) => run.wall)).toFixed(0)} ms, load ${loadBefore} -> ${loadAfter}`,
  );
  // The profile's clock is the wall's (a loaded machine stretches every sample alike): shares of it, times the CPU.
  for (const row of rows.slice(0, top)) {
    const share = row.ms / profiled;
    console.log(
      `  ${(100 * share).toFixed(1).padStart(5)} %  ${(share * cpu).toFixed(0).padStart(4)} ms CPU  ${row.label}`,
    );
  }
  printResult({
    name: `scan-start-profile-${side.name}`,
    line: '',
    values: {
      cpu,
      profiled,
      loadBefore: Number(loadBefore),
      loadAfter: Number(loadAfter),
      groups: Object.fromEntries(rows.map((row) => [row.label, row.ms])),
    },
  });
}
if (!args.includes('--keep')) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
