#!/usr/bin/env node
// The bundle step of `npm test`: runs scripts/bundle.mjs only when what the bundle is built from changed since the last
// bundle this script made. The stamp is a hash of src/ (tests aside), the bundle scripts, the manifest, the lockfile and
// the TypeScript configs, kept beside the bundle in dist/bundle/. A fresh clone always bundles; a second `npm test` on
// unchanged sources skips esbuild's few seconds of CPU, and its wall time before the first test starts.
//
//   node scripts/bundle-if-changed.mjs           bundle unless the stamp says the bundle is of these sources
//   node scripts/bundle-if-changed.mjs --force   bundle anyway (scripts/bundle.mjs itself always bundles)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './bundle-lib.mjs';

const STAMP = join(root, 'dist/bundle/inputs.sha256');
const OUTPUTS = ['tollgate.cjs', 'scan-worker.js', 'stop-hook.cjs', 'run-fast.cjs'].map((file) =>
  join(root, 'dist/bundle/cli', file),
);
const INPUT_FILES = [
  'scripts/bundle.mjs',
  'scripts/bundle-lib.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];

/** Every file under `dir` but tests, sorted by path, so the hash does not depend on the order readdir lists them. */
function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.test\.ts$/.test(entry.name))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const path of [...INPUT_FILES.map((file) => join(root, file)), ...sourceFiles(join(root, 'src'))]) {
    // The path and the length before the bytes: moving content from one file to another changes the hash.
    const bytes = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
    hash.update(`${relative(root, path)}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

const hash = inputsHash();
const current =
  !process.argv.includes('--force') &&
  OUTPUTS.every((path) => existsSync(path)) &&
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8').trim() === hash;
if (current) {
  console.log('bundle: dist/bundle/cli is of these sources (dist/bundle/inputs.sha256); not rebuilt');
  process.exit(0);
}
const bundled = spawnSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { stdio: 'inherit' });
if (bundled.status !== 0) process.exit(bundled.status ?? 1);
writeFileSync(STAMP, `${hash}\n`);
