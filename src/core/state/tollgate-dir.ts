import { lstatSync, mkdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { TollgateError } from '../errors.js';
import { writeFileAtomicSync } from './atomic-write.js';

import { TOLLGATE_DIR } from './tollgate-dir-name.js';

export { TOLLGATE_DIR };

/** Where each piece of tollgate's state lives. Every path is inside `<repo>/.tollgate/`. */
export interface TollgatePaths {
  readonly root: string;
  readonly runsDir: string;
  /** Last results per validator, run verdicts (`results-store.ts`). */
  readonly statePath: string;
  readonly waiversPath: string;
  /** The `waiver.recorded` / `waiver.removed` events: waivers outlive runs, so they keep their own log. */
  readonly waiverEventsPath: string;
  /** Held for the whole of a `tollgate run` (`lock.ts`). */
  readonly lockPath: string;
  /** Held for the few milliseconds of a read-modify-write of `state.json` or `waivers.json`. */
  readonly stateLockPath: string;
  readonly cacheDir: string;
  runDir(runId: string): string;
}

/**
 * Run ids come from `newRunId()`, but `tollgate log <runId>` takes one from the user: refuse anything that could
 * climb out of `.tollgate/runs/`.
 */
const SAFE_RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export function isSafeRunId(runId: string): boolean {
  return SAFE_RUN_ID.test(runId) && !runId.includes('..');
}

export function tollgatePaths(repoRoot: string): TollgatePaths {
  const root = join(repoRoot, TOLLGATE_DIR);
  // `root` is normalized and ends in `.tollgate`, and each name below is one plain segment (a run id is checked to
  // be one): a separator and the name is what `join` would give, without normalizing the whole path again. A repeat
  // run makes these paths several times, and those joins alone sent `path`'s normalizer to the optimizing compiler
  // on every run (docs/benchmarks.md, session 25, helper "repeat").
  const inRoot = (name: string) => `${root}${sep}${name}`;
  const runsDir = inRoot('runs');
  return {
    root,
    runsDir,
    statePath: inRoot('state.json'),
    waiversPath: inRoot('waivers.json'),
    waiverEventsPath: inRoot('waivers.events.jsonl'),
    lockPath: inRoot('run.lock'),
    stateLockPath: inRoot('state.lock'),
    cacheDir: inRoot('cache'),
    runDir(runId: string): string {
      if (!isSafeRunId(runId)) {
        throw new TollgateError('usage', `run id ${JSON.stringify(runId)}: expected letters, digits, ".", "_" or "-"`);
      }
      return `${runsDir}${sep}${runId}`;
    },
  };
}

/** `.tollgate/runs/<runId>/` (not created: `createEventLog` creates it). */
export function runDirFor(repoRoot: string, runId: string): string {
  return tollgatePaths(repoRoot).runDir(runId);
}

/**
 * Creates `<repo>/.tollgate/` (mode 0700) with a `.gitignore` of `*`, so nothing in it is ever committed, not even
 * the `.gitignore` itself. Refuses a `.tollgate` that is a symlink or a file: writing through it could land outside
 * the repository.
 */
export function ensureTollgateDir(repoRoot: string): TollgatePaths {
  const paths = tollgatePaths(repoRoot);
  const existing = lstatUnlessMissing(paths.root);
  if (existing && !existing.isDirectory()) {
    const found = existing.isSymbolicLink() ? 'a symlink' : 'a file';
    throw new TollgateError('io', `${TOLLGATE_DIR}: expected a directory, found ${found}; remove it and rerun`);
  }
  if (!existing) mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  const gitignore = join(paths.root, '.gitignore');
  if (!lstatUnlessMissing(gitignore)) writeFileAtomicSync(gitignore, '*\n', { mode: 0o644 });
  return paths;
}

/** `ensureTollgateDir`, plus this run's folder `.tollgate/runs/<runId>/` (mode 0700). */
export function ensureRunDir(repoRoot: string, runId: string): string {
  const dir = ensureTollgateDir(repoRoot).runDir(runId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** `lstat`, or null when nothing is there; any other error (a folder not searchable) is the caller's to report. */
function lstatUnlessMissing(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
