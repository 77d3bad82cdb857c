#!/usr/bin/env node
// `npm run build:action`: the committed, prebuilt CLI, action/dist/. The GitHub Action runs it (action.yml
// `runs.main: action/dist/index.cjs`), and so do the pre-commit framework's hooks (.pre-commit-hooks.yaml, through
// pre-commit/tollgate.cjs): both run tollgate from this repository as it is at a tag, with no install or build step, so
// the bundle is committed. test/integrations/action-bundle.test.ts and the release workflow rebuild it elsewhere
// (`--outdir DIR`) and fail when the committed files differ by a byte.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundleActionMain, bundleCli, root } from './bundle-lib.mjs';

const flag = process.argv.indexOf('--outdir');
const outdir = flag === -1 ? join(root, 'action/dist') : resolve(process.argv[flag + 1] ?? '');
if (flag !== -1 && !process.argv[flag + 1]) {
  console.error('scripts/build-action.mjs: --outdir needs a folder');
  process.exit(2);
}
try {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await bundleCli(outdir, { sourcemap: false, selfStarting: true });
  await bundleActionMain(outdir);
} catch (error) {
  console.error(`scripts/build-action.mjs: ${error.message}`);
  process.exit(1);
}
