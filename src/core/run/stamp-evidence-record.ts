import { writeSignedJsonFile } from '../state/signed-json-file.js';
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

/**
 * Records the evidence of a stamp's git (stamp-evidence.ts) after the full path saved a passing answer, so that the
 * next fast path can take git's answer without starting git. The evidence is collected before git runs and again
 * after, and kept only when both are the same: nothing git's answer depends on moved while git looked. Which folders
 * git ignores whole, where the system config file is and which global excludes file is set are asked of git in the
 * same round, and must not change between rounds either. Never throws; false when nothing was recorded.
 */
const IGNORED = ['status', '--porcelain=v2', '-z', '--ignored=matching', '--untracked-files=all'];
const EXCLUDES = ['config', '--path', '--get', 'core.excludesFile'];
/** git prints the system config file's path through an "editor" that is the shell's own printf. */
const SYSTEM = ['config', '--system', '--edit'];
const PRINT_EDITOR = "printf '%s\\n'";
/** More ignored paths than this: the answer is not kept (a folder of build output listed file by file). */
const MAX_IGNORED = 20_000;

export async function recordStampEvidence(cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    const startedMs = Date.now();
    const files = repoFilesOf(cwd, env, true);
    if (!files || !fewEnoughTracked(files.indexPath)) return false;
    const gitEnv = stampGitEnv(env);
    const placesEnv = { ...gitEnv, GIT_EDITOR: PRINT_EDITOR };
    const first = placesOf(await gitAll([IGNORED, EXCLUDES, SYSTEM], files.top, placesEnv));
    const before = first && collectWatched(files, env, first, startedMs);
    if (!before) return false;
    const [[status, filters], after] = await Promise.all([
      gitAll([STATUS, FILTERS], cwd, gitEnv),
      gitAll([IGNORED, EXCLUDES, SYSTEM], files.top, placesEnv).then(placesOf),
    ]);
    if (!status || !filters || status.code !== 0 || (filters.code !== 0 && filters.code !== 1)) return false;
    if (!after || !samePlaces(first, after)) return false;
    const filesAfter = repoFilesOf(cwd, env, true);
    const watchedAfter = collectWatched(files, env, after, startedMs);
    if (filesAfter?.top !== files.top || filesAfter.refs !== files.refs) return false;
    if (JSON.stringify(watchedAfter) !== JSON.stringify(before)) return false;
    const evidence: StampEvidence = {
      env: envKeyOf(cwd, env),
      refs: files.refs,
      watched: before,
      status: status.stdout,
      filters: filters.stdout,
      filtersCode: filters.code,
    };
    await writeSignedJsonFile(evidencePath(files.top), 'stamp-evidence', evidence, { indent: 0 });
    return true;
  } catch {
    return false;
  }
}

/** What git said of the places that decide which files it reads; undefined when any answer is not plain. */
function placesOf(results: GitResult[]): GitPlaces | undefined {
  const [ignored, excludes, system] = results;
  if (ignored?.code !== 0 || !excludes || !system || system.code !== 0) return undefined;
  if (excludes.code !== 0 && excludes.code !== 1) return undefined;
  const systemConfig = system.stdout.replace(/\n$/, '');
  if (systemConfig === '' || systemConfig.includes('\n')) return undefined;
  const ignoredDirs = new Set<string>();
  let count = 0;
  for (const record of ignored.stdout.split('\0')) {
    if (record.startsWith('! ') && record.endsWith('/')) ignoredDirs.add(record.slice(2));
    if (++count > MAX_IGNORED) return undefined;
  }
  return { systemConfig, excludesFile: excludes.code === 0 ? excludes.stdout.replace(/\n$/, '') : null, ignoredDirs };
}

function samePlaces(a: GitPlaces, b: GitPlaces): boolean {
  return (
    a.systemConfig === b.systemConfig &&
    a.excludesFile === b.excludesFile &&
    a.ignoredDirs.size === b.ignoredDirs.size &&
    [...a.ignoredDirs].every((dir) => b.ignoredDirs.has(dir))
  );
}
