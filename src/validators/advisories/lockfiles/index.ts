import type { PackageVersion } from '../ecosystems.js';
import { parseBunLock, parseDenoLock } from './js-runtimes.js';
import { parseNpmLock } from './npm.js';
import { parseCargoLock, parseComposerLock, parseGemfileLock, parseGoMod, parseGoSum } from './other.js';
import { parsePnpmLock } from './pnpm.js';
import { parsePipfileLock, parsePoetryLock, parseRequirements, parseUvLock } from './python.js';
import { parseYarnLock } from './yarn.js';

export { LockfileError } from './lockfile-error.js';

export type LockfileParser = (text: string) => PackageVersion[];

/** Every lockfile and manifest tollgate reads, by file name. */
const BY_NAME: Record<string, LockfileParser> = {
  'package-lock.json': parseNpmLock,
  'npm-shrinkwrap.json': parseNpmLock,
  'yarn.lock': parseYarnLock,
  'pnpm-lock.yaml': parsePnpmLock,
  'bun.lock': parseBunLock,
  'deno.lock': parseDenoLock,
  'poetry.lock': parsePoetryLock,
  'uv.lock': parseUvLock,
  'Pipfile.lock': parsePipfileLock,
  'go.mod': parseGoMod,
  'go.sum': parseGoSum,
  'Cargo.lock': parseCargoLock,
  'Gemfile.lock': parseGemfileLock,
  'composer.lock': parseComposerLock,
};

const REQUIREMENTS = /^requirements.*\.txt$/;
/** Installed copies and vendored trees are not the project's own lockfiles. */
const VENDORED = /(^|\/)(node_modules|vendor|\.venv|venv|site-packages)\//;

export function lockfileParserFor(path: string): LockfileParser | undefined {
  if (VENDORED.test(path)) return undefined;
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (REQUIREMENTS.test(name)) return parseRequirements;
  return BY_NAME[name];
}
