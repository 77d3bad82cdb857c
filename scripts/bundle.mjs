#!/usr/bin/env node
// Bundles the CLI into one CommonJS file, dist/bundle/cli/tollgate.cjs, which bin/tollgate.cjs loads through V8's
// code cache: one file compiled from cache starts several times faster than hundreds of ESM modules, and agents run
// tollgate after every turn (the stop hook and `tollgate run` on an unchanged tree have millisecond budgets). The
// stop hook's fast path is a second, small file (stop-hook.cjs), tried first for `hook stop`. `tsc` still
// type-checks and emits dist/ for the tests.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/bundle/cli');
const STOP_HOOK_BUNDLE_LIMIT = 64 * 1024;
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // ESM entry points first: some packages' `main` is a UMD build whose dynamic requires esbuild cannot follow
  // (jsonc-parser's `require('./impl/format')` failed at run time only, in the bundle).
  mainFields: ['module', 'main'],
};

// CommonJS has no import.meta: give the code its module URL back (package-files.ts walks up from it).
const commonJs = {
  ...common,
  format: 'cjs',
  define: { 'import.meta.url': '__tollgateModuleUrl', 'import.meta.dirname': '__dirname' },
  banner: { js: "var __tollgateModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
// The whole CLI; it exports runCli, which bin/tollgate.cjs calls.
await build({ ...commonJs, entryPoints: [join(root, 'src/cli/start.ts')], outfile: join(outdir, 'tollgate.cjs') });
// The stop hook's fast path alone (a few dozen kB): most stops are answered without reading the whole CLI.
await build({
  ...commonJs,
  entryPoints: [join(root, 'src/cli/stop-hook-fast.ts')],
  outfile: join(outdir, 'stop-hook.cjs'),
  metafile: true,
}).then(({ metafile }) => {
  const bytes = Object.values(metafile.outputs).find((output) => output.entryPoint)?.bytes ?? 0;
  // A stray import (the full path, zod, a validator) would quietly make every stop pay for it again.
  if (bytes > STOP_HOOK_BUNDLE_LIMIT) {
    console.error(
      `scripts/bundle.mjs: stop-hook.cjs is ${bytes} bytes, over ${STOP_HOOK_BUNDLE_LIMIT}: its entry (src/cli/stop-hook-fast.ts) imports more than the fast path`,
    );
    process.exit(1);
  }
});

// Worker threads load their script by URL next to the code that starts them, so each worker is a file of its own.
const worker = join(root, 'src/secrets/scan-worker.ts');
if (existsSync(worker)) {
  await build({
    ...common,
    entryPoints: [worker],
    outfile: join(outdir, 'scan-worker.js'),
    format: 'esm',
    banner: {
      js: "import { createRequire as __tollgateRequire } from 'node:module'; const require = __tollgateRequire(import.meta.url);",
    },
  });
}

// A dynamic import() left in the CommonJS bundle (only builtins stay unbundled) would fail at run time under the
// code-cache loader: catch it here, at build time.
const { readFileSync } = await import('node:fs');
for (const file of ['tollgate.cjs', 'stop-hook.cjs']) {
  const leftover = readFileSync(join(outdir, file), 'utf8').match(/\bimport\("[^"]*"\)/g);
  if (leftover) {
    console.error(
      `scripts/bundle.mjs: dynamic import() left in ${file}: ${[...new Set(leftover)].join(', ')}; import it statically`,
    );
    process.exit(1);
  }
}
