#!/usr/bin/env node
// Bundles the CLI into dist/bundle/cli/ (what `bin` points at). One bundle with code splitting loads in a fraction of
// the time of hundreds of separate ESM files, which matters for a tool agents run after every edit (the stop hook and
// `tollgate run` on an unchanged tree have millisecond budgets). `tsc` still type-checks and emits dist/ for tests.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entryPoints = [{ in: join(root, 'src/cli/bin.ts'), out: 'bin' }];
// Worker threads load their script by URL next to the chunk that starts them, so each worker is an entry of its own.
const worker = join(root, 'src/validators/secrets/scan-worker.ts');
if (existsSync(worker)) entryPoints.push({ in: worker, out: 'scan-worker' });

await build({
  entryPoints,
  outdir: join(root, 'dist/bundle/cli'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'bundle',
  minify: true,
  keepNames: false,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // Some bundled CommonJS dependencies call require(); give ESM chunks one.
  banner: {
    js: "import { createRequire as __tollgateRequire } from 'node:module'; const require = __tollgateRequire(import.meta.url);",
  },
});
