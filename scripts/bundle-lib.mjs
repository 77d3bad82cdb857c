// The one esbuild set-up behind both bundles: the CLI's (scripts/bundle.mjs, dist/bundle/cli/, git-ignored) and the
// GitHub Action's (scripts/build-action.mjs, action/dist/, committed). Same options, so the Action runs the CLI users run.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// zod bundles every language's error messages behind one index (`z.locales`): a sixth of the CLI's bundle and a
// third of the scan worker's, read and evaluated on each start. tollgate speaks English, zod's default (which zod
// imports from en.js itself), so the index is built with English alone; nothing in src/ names `z.locales`
// (test/cli/bundle-shape.test.ts checks both).
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

export const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Paths as the project spells them (`node_modules/…`), not where a symlinked node_modules really lives: the
  // committed Action bundle must be byte-equal whoever builds it.
  preserveSymlinks: true,
  absWorkingDir: root,
  // ESM entry points first: some packages' `main` is a UMD build whose dynamic requires esbuild cannot follow
  // (jsonc-parser's `require('./impl/format')` failed at run time only, in the bundle).
  mainFields: ['module', 'main'],
  plugins: [zodEnglishOnly],
};

/**
 * package.json's version as src/core/version.ts reads it, written into the CommonJS bundles: each start of a fast path
 * walked up to package.json and parsed it for this one string (0.2 ms of CPU, docs/benchmarks.md "The fast paths'
 * answers"). package.json is among the bundle's inputs (scripts/bundle-stamp.mjs), so a new version rebuilds them.
 */
function versionDefine() {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (typeof version !== 'string') throw new Error('package.json has no version');
  return { __TOLLGATE_BUNDLED_VERSION__: JSON.stringify(version) };
}

// CommonJS has no import.meta: give the code its module URL back, made on first use (building a URL at each start
// cost the fast paths a few percent of a run; they need only the folder, `import.meta.dirname`).
export const cjsImportMeta = {
  define: { 'import.meta.url': '__tollgateModule.url', 'import.meta.dirname': '__dirname', ...versionDefine() },
  banner: {
    js: "var __tollgateModule = { get url() { return require('node:url').pathToFileURL(__filename).href; } };",
  },
};

/**
 * The CLI's bundle written as the function Node's module wrapper would make of it (`Module.wrap`): bin/tollgate.cjs
 * compiles the file as it is read, where wrapping it at each start made a second string of 1.8 MB that V8 then copied
 * flat again before compiling (6 ms of CPU and 430 page faults a start, docs/benchmarks.md "A first run's CPU
 * ledger"). Only bin/tollgate.cjs loads this bundle; the Action's (`selfStarting`) is required as a module and stays
 * as it was.
 */
const LOADER_WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';
const wrappedForLoader = {
  banner: { js: `${LOADER_WRAPPER}${cjsImportMeta.banner.js}` },
  footer: { js: '\n})' },
};

// The fast paths' small bundles get src/core/fs-promises-lite.ts for `node:fs/promises`: the same calls through the
// callback API every process has loaded (loading the promise API, with the watchers and readline it brings, cost each
// answer more than its reads). A call the module lacks fails the build.
const fsPromisesLite = {
  name: 'fs-promises-lite',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?fs\/promises$/ }, () => ({
      path: join(root, 'src/core/fs-promises-lite.ts'),
    }));
  },
};

// They get src/core/module-lite.ts for `node:module` likewise: its `createRequire` is the bundle's own `require`, and
// Node's public `module` (with the ES module loader and source maps it loads) is not loaded at all.
const moduleLite = {
  name: 'module-lite',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?module$/ }, () => ({ path: join(root, 'src/core/module-lite.ts') }));
  },
};

/**
 * Each with a size limit: a stray import (the full path, zod, a validator) would quietly make every stop, or every
 * no-change run, pay for it again.
 */
const SMALL_BUNDLES = [
  {
    file: 'stop-hook.cjs',
    entry: 'src/cli/stop-hook-fast.ts',
    limit: 64 * 1024,
    wrapped: true,
    forbidden: ['node:fs/promises', 'node:module'],
    // The agents' install code (config file editors, the Codex trust file): no stop needs it.
    forbiddenInputs: [/node_modules\/(jsonc-parser|smol-toml)\//, /src\/integrations\/hooks\/(codex-install|install)/],
    plugins: [fsPromisesLite, moduleLite],
  },
  {
    file: 'run-fast.cjs',
    entry: 'src/cli/run-fast.ts',
    limit: 96 * 1024,
    wrapped: true,
    forbidden: ['node:fs/promises', 'node:module'],
    plugins: [fsPromisesLite, moduleLite],
  },
  // Loaded before either of them, without the code cache: it only starts their stamp's git (or checks the saved
  // evidence that spares it: stamp-evidence.ts), which must not wait for the modules the answer needs later (hashing,
  // the promise-based file API).
  {
    file: 'fast-start.cjs',
    entry: 'src/cli/fast-start.ts',
    limit: 20 * 1024,
    forbidden: ['node:crypto', 'node:fs/promises', 'node:module'],
    plugins: [moduleLite],
  },
];

/**
 * What a scan never runs, left out of the scan's bundle: each validator's runner (only a gate's `run` calls it; the
 * config needs the validators' declarations, for their options' schemas, never their runners) and the run report's
 * renderers (a scan prints its own reports, src/validators/secrets/report/). Each becomes a module that throws when
 * loaded, naming itself, so a scan that ever reached one would fail with that internal error, not run other code.
 */
const NOT_IN_A_SCAN = [
  { importer: /[\\/]src[\\/]validators[\\/][^\\/]+[\\/]index\.ts$/, path: /^\.\/run-[a-z-]+\.js$/ },
  { importer: /[\\/]src[\\/]report[\\/]index\.ts$/, path: /^\.\// },
];
const scanOnly = {
  name: 'scan-only',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\// }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const absent = NOT_IN_A_SCAN.some((rule) => rule.importer.test(args.importer) && rule.path.test(args.path));
      if (!absent) return undefined;
      const name = `${args.importer.slice(root.length + 1).replace(/[\\/][^\\/]*$/, '')}/${args.path.slice(2)}`;
      return { path: name.replace(/\\/g, '/'), namespace: 'not-in-a-scan' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'not-in-a-scan' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in the scan's bundle (scan.cjs)`)});\n`,
      loader: 'js',
    }));
  },
};

/**
 * The scan's own bundle, which bin/tollgate.cjs loads for `tollgate scan` without help: half the whole CLI's size.
 * Its limit and inputs keep it so: the gate's pipeline, MCP, install and the agents' hooks are not a scan's.
 */
export const SCAN_BUNDLE = {
  file: 'scan.cjs',
  entry: 'src/cli/scan-start.ts',
  limit: 1024 * 1024,
  forbiddenInputs: [
    /src\/core\/pipeline\/(execute-tool|hooks|event-sink|permissions)\.ts$/,
    /src\/core\/run\/(run-gate|execute-selected|parallel-validation|persist-run|unchanged-run)\.ts$/,
    /src\/integrations\//,
    /src\/validators\/[^/]+\/run-/,
    /src\/report\/(markdown|json|html)/,
    /node_modules\/@modelcontextprotocol\//,
  ],
  plugins: [scanOnly],
  wrapped: true,
};

/**
 * `wrapped`: a bundle only bin/tollgate.cjs loads through the code cache is written as the whole CLI's is
 * (`wrappedForLoader`), so its start compiles the text as read: wrapping it there made a second copy of it in V8's
 * young generation, flattened again before compiling. fast-start.cjs is `require`d, and stays a plain module.
 */
async function bundleSmall(
  outdir,
  { file, entry, limit, wrapped = false, forbidden = [], forbiddenInputs = [], plugins = [] },
  maps,
) {
  const { metafile } = await build({
    ...common,
    ...maps,
    ...cjsImportMeta,
    ...(wrapped ? wrappedForLoader : {}),
    plugins: [...common.plugins, ...plugins],
    entryPoints: [join(root, entry)],
    outfile: join(outdir, file),
    format: 'cjs',
    metafile: true,
  });
  const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint);
  const bytes = output?.bytes ?? 0;
  for (const pattern of forbiddenInputs) {
    // A plugin's own modules (`not-in-a-scan:…`, a stub that only throws) are not the source they stand for.
    const input = Object.keys(output?.inputs ?? {}).find((name) => !/^[a-z-]+:/.test(name) && pattern.test(name));
    if (input) throw new Error(`${file} holds ${input}: its entry (${entry}) must not import it`);
  }
  if (bytes > limit) {
    throw new Error(`${file} is ${bytes} bytes, over ${limit}: its entry (${entry}) imports more than its fast path`);
  }
  const text = readFileSync(join(outdir, file), 'latin1');
  for (const name of forbidden) {
    if (text.includes(`require("${name}")`)) throw new Error(`${file} loads ${name}: its entry (${entry}) must not`);
  }
}

/**
 * tollgate.cjs and scan-worker.cjs into `outdir`; `sourcemap` only where nothing is committed. The CLI's bundle is
 * `src/cli/start.ts`, which exports `runCli` for bin/tollgate.cjs to call after loading it through the code cache,
 * plus the small fast paths (stop-hook.cjs, run-fast.cjs) and the scan's own bundle (scan.cjs, `src/cli/scan-start.ts`,
 * also exporting `runCli`); the Action's (`selfStarting`) is `src/cli/bin.ts`, which starts itself when required.
 */
export async function bundleCli(outdir, { sourcemap, selfStarting = false }) {
  const maps = sourcemap ? { sourcemap: 'linked' } : {};
  await build({
    ...common,
    ...maps,
    ...cjsImportMeta,
    ...(selfStarting ? {} : wrappedForLoader),
    entryPoints: [join(root, selfStarting ? 'src/cli/bin.ts' : 'src/cli/start.ts')],
    outfile: join(outdir, 'tollgate.cjs'),
    format: 'cjs',
  });
  const bundles = ['tollgate.cjs'];
  if (!selfStarting) {
    // The small bundles tried before the whole CLI: most stops, and most runs of an agent on an unchanged tree, are
    // answered without reading it; and the scan's, loaded in its place.
    // npm publishes only what package.json's `files` lists: a small bundle left out of it is one every installed
    // tollgate lacks, and its fast path then falls back without a word (fast-start.cjs was, for a while).
    const published = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).files;
    for (const small of [...SMALL_BUNDLES, SCAN_BUNDLE]) {
      if (!published.includes(`dist/bundle/cli/${small.file}`)) {
        throw new Error(`${small.file} is not in package.json's "files": an installed tollgate would lack it`);
      }
      await bundleSmall(outdir, small, maps);
      bundles.push(small.file);
    }
  }
  // Worker threads load their script by URL next to the code that starts them, so each worker is a file of its own.
  const worker = join(root, 'src/secrets/scan-worker.ts');
  if (existsSync(worker)) {
    const { metafile } = await build({
      ...common,
      ...maps,
      ...cjsImportMeta,
      // CommonJS, so that a worker loads it without Node's ES module loader (`WORKER_URL` in
      // src/secrets/parallel-scan.ts); its one promise read goes through the callback API, as the fast paths' do.
      plugins: [...common.plugins, fsPromisesLite, moduleLite],
      entryPoints: [worker],
      outfile: join(outdir, 'scan-worker.cjs'),
      format: 'cjs',
      metafile: true,
    });
    // Each worker loads its bundle in a fresh isolate: the config parsers cost it 70-90 ms of CPU a start, and it is
    // sent the rules and suppressions as data (src/secrets/scanner-rules.ts), so none may come back in.
    const parser = Object.keys(metafile.inputs).find((name) =>
      /node_modules\/(zod|jsonc-parser|smol-toml)\//.test(name),
    );
    if (parser) throw new Error(`scan-worker.cjs holds ${parser}: the scan worker must not load a config parser`);
  }
  // A dynamic import() left in a CommonJS bundle (only builtins stay unbundled) would fail at run time under the
  // code-cache loader: catch it here, at build time.
  for (const file of bundles) {
    const text = readFileSync(join(outdir, file), 'utf8');
    // bin/tollgate.cjs reads the CLI's bundle as Latin-1 (the cheapest decoding): it must be ASCII. esbuild escapes
    // non-ASCII characters in strings, not in regular expression literals.
    const nonAscii = /[^\x00-\x7f]/.exec(text);
    if (nonAscii && file.endsWith('.cjs')) {
      const around = text.slice(Math.max(0, nonAscii.index - 40), nonAscii.index + 10);
      throw new Error(
        `${file} has a non-ASCII character near ${JSON.stringify(around)}; write it as \\u${nonAscii[0].charCodeAt(0).toString(16).padStart(4, '0')} in the source`,
      );
    }
    const leftover = text.match(/\bimport\("[^"]*"\)/g);
    if (leftover) {
      throw new Error(`dynamic import() left in ${file}: ${[...new Set(leftover)].join(', ')}; import it statically`);
    }
  }
  if (!selfStarting) {
    // bin/tollgate.cjs keys its code cache by this hash (V8 itself compares only the source's length): appended here,
    // it costs the CLI nothing to read on each start. Every CommonJS bundle goes through that cache.
    for (const file of bundles) appendBundleHash(join(outdir, file));
  }
}

/** The trailer bin/tollgate.cjs reads as a bundle's id instead of hashing the bundle at each start. */
export function appendBundleHash(path) {
  const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
  appendFileSync(path, `// tollgate-bundle-sha256: ${hash}\n`);
}

/** The Action's `main`: maps the runner's INPUT_* to the step's settings and hands over to tollgate.cjs beside it. */
export async function bundleActionMain(outdir) {
  await build({
    ...common,
    ...cjsImportMeta,
    entryPoints: [join(root, 'src/integrations/github-action/action-main.ts')],
    outfile: join(outdir, 'index.cjs'),
    format: 'cjs',
    external: ['./tollgate.cjs'],
  });
}
