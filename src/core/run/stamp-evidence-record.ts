import { existsSync } from 'node:fs';
import { writeSignedJsonFile } from '../state/signed-json-file.js';
import { traceFastPath } from './fast-path-trace.js';
import {
  collectWatched,
  envKeyOf,
  evidencePath,
  fewEnoughTracked,
  type GitPlaces,
  type StampEvidence,
} from './stamp-evidence.js';
import { type GitResult, gitAll } from './stamp-git.js';
import { repoFilesOf } from './stamp-repo-files.js';
import { FILTERS, STATUS, stampGitEnv } from './stamp-start.js';
import type { Stamp } from './tree-stamp.js';

const IGNORED = ['status', '--porcelain=v2', '-z', '--ignored=matching', '--untracked-files=all'];
const EXCLUDES = ['config', '--path', '--get', 'core.excludesFile'];
const ATTRIBUTES = ['config', '--path', '--get', 'core.attributesFile'];
/** git prints the system config file's path through an "editor" that is the shell's own printf. */
const SYSTEM = ['config', '--system', '--edit'];
const PRINT_EDITOR = "printf '%s\\n'";
/** More ignored paths than this: the answer is not kept (a folder of build output listed file by file). */
const MAX_IGNORED = 20_000;

/**
 * Records the evidence of a stamp's git (stamp-evidence.ts) after the full path saved a passing answer, so that the
 * next fast path can take git's answer without starting git. The evidence is collected before git runs and again
 * after, and kept only when both are the same: nothing git's answer depends on moved while git looked. Which folders
 * git ignores whole, where the system config file is and which global excludes file is set are asked of git in the
 * same round, and must not change between rounds either. Never throws; false when nothing was recorded.
 */
export async function recordStampEvidence(cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    const startedMs = Date.now();
    const files = repoFilesOf(cwd, env, true);
    if (!files || !fewEnoughTracked(files.indexPath)) return false;
    const gitEnv = stampGitEnv(env);
    const placesEnv = { ...gitEnv, GIT_EDITOR: PRINT_EDITOR };
    const first = placesOf(await gitAll([IGNORED, EXCLUDES, SYSTEM, ATTRIBUTES], files.top, placesEnv));
    const before = first && collectWatched(files, env, first, startedMs);
    if (!before)
      return notKept(env, first ? 'the tree has what the evidence cannot vouch for' : 'git said no plain places');
    const [[status, filters], after] = await Promise.all([
      gitAll([STATUS, FILTERS], cwd, gitEnv),
      gitAll([IGNORED, EXCLUDES, SYSTEM, ATTRIBUTES], files.top, placesEnv).then(placesOf),
    ]);
    if (!status || !filters || status.code !== 0 || (filters.code !== 0 && filters.code !== 1))
      return notKept(env, 'git status failed');
    if (!after || !samePlaces(first, after)) return notKept(env, 'the ignored folders or config places moved');
    const filesAfter = repoFilesOf(cwd, env, true);
    const watchedAfter = collectWatched(files, env, after, startedMs);
    if (filesAfter?.top !== files.top || filesAfter.refs !== files.refs) return notKept(env, 'the refs moved');
    if (JSON.stringify(watchedAfter) !== JSON.stringify(before))
      return notKept(env, 'something moved while git looked');
    const evidence: StampEvidence = {
      env: envKeyOf(cwd, env),
      refs: files.refs,
      ...before,
      status: status.stdout,
      filters: filters.stdout,
      filtersCode: filters.code,
    };
    await writeSignedJsonFile(evidencePath(files.top), 'stamp-evidence', evidence, { indent: 0 });
    return true;
  } catch (error) {
    return notKept(env, `an error: ${(error as Error).message}`);
  }
}

/**
 * Renews the evidence after a fast path answered through git: the saved evidence no longer held (a file touched, its
 * bytes the same; an index rewritten), git ran in this process, and its answer gave the very stamp the signed saved
 * result was made with. The evidence is recorded as the full path records it (`recordStampEvidence`: its own git,
 * the same checks around it, the same signature), so the next stamp may again take git's answer without git. Only
 * where evidence was kept before (its file is there): a tree the evidence cannot vouch for would otherwise pay the
 * record's git on every answer. The saved result itself is never rewritten. Never throws; false when nothing was
 * recorded.
 */
export async function renewStampEvidence(stamp: Stamp): Promise<boolean> {
  if (stamp.fromEvidence !== false || stamp.racy || !stamp.vouches || !stamp.taken) return false;
  if (!existsSync(evidencePath(stamp.repoRoot))) return false;
  traceFastPath(stamp.taken.env, 'git proved nothing changed: renewing the evidence');
  return recordStampEvidence(stamp.taken.cwd, stamp.taken.env);
}

/** Says why under TOLLGATE_TRACE_FAST_PATH, and answers false. */
function notKept(env: NodeJS.ProcessEnv, why: string): false {
  traceFastPath(env, `no evidence kept: ${why}`);
  return false;
}

/** What git said of the places that decide which files it reads; undefined when any answer is not plain. */
function placesOf(results: GitResult[]): GitPlaces | undefined {
  const [ignored, excludes, system, attributes] = results;
  if (ignored?.code !== 0 || !system || system.code !== 0) return undefined;
  const excludesFile = configuredPath(excludes);
  const attributesFile = configuredPath(attributes);
  if (excludesFile === undefined || attributesFile === undefined) return undefined;
  const systemConfig = system.stdout.replace(/\n$/, '');
  if (systemConfig === '' || systemConfig.includes('\n')) return undefined;
  const ignoredDirs = new Set<string>();
  let count = 0;
  for (const record of ignored.stdout.split('\0')) {
    if (record.startsWith('! ') && record.endsWith('/')) ignoredDirs.add(record.slice(2));
    if (++count > MAX_IGNORED) return undefined;
  }
  return { systemConfig, excludesFile, attributesFile, ignoredDirs };
}

/** A `git config --path --get` answer: the path, null when unset (exit 1), undefined for anything else. */
function configuredPath(result: GitResult | undefined): string | null | undefined {
  if (result?.code === 1 && result.stdout === '') return null;
  return result?.code === 0 ? result.stdout.replace(/\n$/, '') : undefined;
}

function samePlaces(a: GitPlaces, b: GitPlaces): boolean {
  return (
    a.systemConfig === b.systemConfig &&
    a.excludesFile === b.excludesFile &&
    a.attributesFile === b.attributesFile &&
    a.ignoredDirs.size === b.ignoredDirs.size &&
    [...a.ignoredDirs].every((dir) => b.ignoredDirs.has(dir))
  );
}
