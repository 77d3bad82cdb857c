// The stamp of what dist/bundle/cli was built from: a hash of src/ (tests aside), the bundle scripts, the manifest, the
// lockfile and the TypeScript configs. scripts/bundle.mjs writes it with every bundle it makes (and drops it first, so
// a failed build leaves none); scripts/bundle-if-changed.mjs compares it to skip a bundle of unchanged sources.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './bundle-lib.mjs';

const STAMP = join(root, 'dist/bundle/inputs.sha256');
const INPUT_FILES = [
  'scripts/bundle.mjs',
  'scripts/bundle-lib.mjs',
  'scripts/bundle-stamp.mjs',
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

export function bundleInputsHash() {
  const hash = createHash('sha256');
  for (const path of [...INPUT_FILES.map((file) => join(root, file)), ...sourceFiles(join(root, 'src'))]) {
    // The path and the length before the bytes: moving content from one file to another changes the hash.
    const bytes = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
    hash.update(`${relative(root, path)}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

/** The hash the last finished bundle was stamped with, or undefined. */
export function readBundleStamp() {
  return existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : undefined;
}

export function dropBundleStamp() {
  rmSync(STAMP, { force: true });
}

export function writeBundleStamp(hash) {
  writeFileSync(STAMP, `${hash}\n`);
}
