#!/usr/bin/env node
// The bundle step of `npm test`: runs scripts/bundle.mjs only when what the bundle is built from changed since the last
// bundle it made (the stamp in dist/bundle/, see bundle-stamp.mjs). A fresh clone always bundles; a second `npm test`
// on unchanged sources skips esbuild's few seconds of CPU, and its wall time before the first test starts.
//
//   node scripts/bundle-if-changed.mjs           bundle unless the stamp says the bundle is of these sources
//   node scripts/bundle-if-changed.mjs --force   bundle anyway (scripts/bundle.mjs itself always bundles)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './bundle-lib.mjs';
import { bundleInputsHash, readBundleStamp } from './bundle-stamp.mjs';

const OUTPUTS = ['tollgate.cjs', 'scan.cjs', 'scan-worker.cjs', 'stop-hook.cjs', 'run-fast.cjs'].map((file) =>
  join(root, 'dist/bundle/cli', file),
);

const current =
  !process.argv.includes('--force') &&
  OUTPUTS.every((path) => existsSync(path)) &&
  readBundleStamp() === bundleInputsHash();
if (current) {
  console.log('bundle: dist/bundle/cli is of these sources (dist/bundle/inputs.sha256); not rebuilt');
  process.exit(0);
}
const bundled = spawnSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { stdio: 'inherit' });
process.exit(bundled.status ?? 1);
