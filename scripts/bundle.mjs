#!/usr/bin/env node
// Bundles the CLI into one CommonJS file, dist/bundle/cli/tollgate.cjs, which bin/tollgate.cjs loads through V8's
// code cache: one file compiled from cache starts several times faster than hundreds of ESM modules, and agents run
// tollgate after every turn (the stop hook and `tollgate run` on an unchanged tree have millisecond budgets). The
// stop hook's fast path is a second, small file (stop-hook.cjs), tried first for `hook stop`; `scan` has a bundle of
// its own (scan.cjs), without the gate's pipeline (scripts/bundle-lib.mjs, `SCAN_BUNDLE`). `tsc` still
// type-checks and emits dist/ for the tests. Every bundle is stamped with the hash of its inputs (bundle-stamp.mjs),
// taken before it is built.
import { join } from 'node:path';
import { bundleCli, root } from './bundle-lib.mjs';
import { bundleInputsHash, dropBundleStamp, writeBundleStamp } from './bundle-stamp.mjs';

try {
  const inputs = bundleInputsHash();
  dropBundleStamp();
  await bundleCli(join(root, 'dist/bundle/cli'), { sourcemap: true });
  writeBundleStamp(inputs);
} catch (error) {
  console.error(`scripts/bundle.mjs: ${error.message}`);
  process.exit(1);
}
