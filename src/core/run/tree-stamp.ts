import { createHash } from 'node:crypto';
import { lstat, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { readIndexFacts } from '../change-set/index-facts.js';
import type { IndexFileTimes } from '../change-set/second-blind-entries.js';
import { checkWorkTreeIsHere } from '../change-set/work-tree-here.js';
import { checkSignatureOfText } from '../state/signed-json.js';
import { readStateKeyIfPresent } from '../state/state-key.js';
import { TOLLGATE_DIR } from '../state/tollgate-dir.js';
import { FAST_PATH_TRACE_VARIABLE } from './fast-path-trace.js';
import type { GitResult } from './stamp-git.js';
import type { RepoFiles } from './stamp-repo-files.js';
import { type StampOptions, type StartedStamp, startStamp, startStampGit } from './stamp-start.js';

/**
 * A stamp of everything in a repository that could change a run's answer without tollgate knowing: `git status` of
 * the work tree (which names HEAD's commit, the branch and its upstream), the stat data of every path it lists, the
 * config file, the policy edits a person accepted and this clone's waivers (their bytes), the TOLLGATE_* variables and
 * PATH (which tools can run), and, for a run (whose base comes from refs), every ref's name and commit. Two equal stamps mean the same change set and config, so the answer saved with one
 * holds for the other: the stop hook's fast path and the no-change run's use it instead of building the change set,
 * which stages the whole tree into a temporary index.
 *
 * Like git's racy-clean rule, a stamp taken while a listed file was modified in the last two seconds is `racy` and must
 * not be saved: a write in the same timestamp tick could otherwise go unseen.
 *
 * `git status` is only as honest as what it is allowed to skip, and the change being judged controls that. So status
 * runs in the snapshot's own git environment (no file system monitor, no untracked cache, no replace refs or grafts:
 * `fixedGitEnv`), and a
 * stamp does not `vouch` for a tree whose index marks entries assume-unchanged or skip-worktree (status does not look
 * at their files), tracks files under `.tollgate/`, or whose config names a clean filter (status compares filtered
 * text, which a filter can make equal to the commit): there only the full path sees what is on disk.
 */
const RACY_MS = 2000;
const CONFIG_FILE_NAMES = ['tollgate.config.yaml', '.tollgate.yaml'];
/** State that changes what a run decides without touching the tree: accepted policy edits, local waivers. */
const POLICY_STATE_FILES = ['policy-accepted.json', 'waivers.json'];

export interface Stamp {
  repoRoot: string;
  value: string;
  /** A listed file changed too recently for the stamp to be trusted later. */
  racy: boolean;
  /** False when `git status` may not see every edit (see above): no answer may be saved with, or read by, this stamp. */
  vouches: boolean;
  /** How it was taken: so that a saved answer can record its git's evidence in the same folder and environment. */
  taken?: StampOptions;
  /** True when git's answer came from saved evidence that held (no git ran); false when git itself answered. */
  fromEvidence?: boolean;
}

export type { StampOptions } from './stamp-start.js';
export { findSaved } from './stamp-start.js';

/** The repository root and the stamp of the work tree as seen from `cwd`; null when it is not a repository. */
export function stampOf(options: StampOptions): Promise<Stamp | null> {
  return finishStamp(startStamp(options));
}

/** The stamp of a stamp whose git was started (stamp-start.ts); null when it is not a repository. */
export async function finishStamp(started: StartedStamp): Promise<Stamp | null> {
  const { options, files } = started;
  const { cwd, env } = options;
  const { results, fromEvidence } = await stampResults(started);
  const [status, filters, repo] = results as [GitResult, GitResult, GitResult | undefined];
  const facts = files ?? repoFactsOf(repo!);
  if (!facts) return null;
  const { top: repoRoot, indexPath, objectFormat } = facts;
  try {
    checkWorkTreeIsHere(cwd, repoRoot, env);
  } catch {
    // A work tree the repository's config moved elsewhere: no stamp vouches, and the full path refuses it.
    return { repoRoot, value: '', racy: true, vouches: false };
  }
  // A repository whose status git could not give: no stamp vouches for it, and the full path decides (never "no
  // repository, nothing to gate"). `git config --get-regexp` exits 1 when nothing matches; any other code (a git
  // that could not run, or was killed) says nothing about filters.
  if (status.code !== 0 || (filters.code !== 0 && filters.code !== 1))
    return { repoRoot, value: '', racy: true, vouches: false };
  // Evidence is recorded only for an index that hides nothing and whose every entry git's stat check can see, and it
  // holds only while that index and those files are unchanged. Read after git answered: a write git could not see
  // before it looked is still one the stamp sees.
  const index = fromEvidence
    ? { mayHide: false, blind: [] }
    : await indexFactsAt(resolve(cwd, indexPath), objectFormat, repoRoot);
  const vouches = filters.stdout === '' && !index.mayHide && index.blind !== undefined;
  const hash = createHash('sha256').update(`${options.purpose}\0${options.version}\0`).update(status.stdout);
  // Refs read from files and refs from git are told apart: the two texts never stand for each other.
  if (options.refs) hash.update(files ? '\0ref-files\0' : '\0refs\0').update(facts.refs);
  const now = Date.now();
  let racy = false;
  // The files git's stat check is blind to (second-blind-entries.ts): their stat data is part of the stamp, so every
  // later write to one changes it, though git lists none of them.
  const paths = new Set<string>(index.blind);
  for (const record of status.stdout.split('\0')) {
    if (record === '' || record.startsWith('#')) continue;
    // v2 records end with the path; a rename's original path is the next NUL-separated record (listed on its own).
    const path = record.startsWith('?') || record.startsWith('!') ? record.slice(2) : record.split(' ').at(-1)!;
    paths.add(path);
  }
  const configOverride = env.TOLLGATE_CONFIG;
  const configPaths = configOverride
    ? [isAbsolute(configOverride) ? configOverride : resolve(cwd, configOverride)]
    : CONFIG_FILE_NAMES.map((name) => join(repoRoot, name));
  const [policyState, statLines] = await Promise.all([
    Promise.all(POLICY_STATE_FILES.map((name) => readStateBytes(join(repoRoot, TOLLGATE_DIR, name)))),
    Promise.all(
      [...[...paths].sort().map((path) => join(repoRoot, path)), ...configPaths].map(async (path) => {
        try {
          const info = await lstat(path, { bigint: true });
          if (Number(info.mtimeMs) > now - RACY_MS) racy = true;
          return `${path}\0${info.mtimeNs}\0${info.ctimeNs}\0${info.size}\0${info.ino}`;
        } catch {
          return `${path}\0-`;
        }
      }),
    ),
  ]);
  for (const line of statLines) hash.update('\0').update(line);
  for (const state of policyState) {
    if (typeof state === 'string') hash.update(`\0policy\0missing\0${state}`);
    else hash.update(`\0policy\0${state.length}\0`).update(state);
  }
  for (const key of Object.keys(env).sort()) {
    if (key.startsWith('TOLLGATE_') && key !== 'TOLLGATE_ACTIVE' && key !== FAST_PATH_TRACE_VARIABLE) {
      hash.update(`\0${key}=${env[key]}`);
    }
  }
  hash.update(`\0PATH=${env.PATH ?? ''}`);
  return { repoRoot, value: hash.digest('hex'), racy, vouches, taken: options, fromEvidence };
}

/**
 * The stamp's git results: git's own, or the ones saved evidence recorded (stamp-start.ts) once its signature holds
 * under the user's state key; git is started now when it does not (edited outside tollgate, or no key).
 */
async function stampResults(started: StartedStamp): Promise<{ results: GitResult[]; fromEvidence: boolean }> {
  if (started.evidence) {
    const key = await readStateKeyIfPresent(started.options.env).catch(() => null);
    const { signed, text } = started.evidence;
    if (checkSignatureOfText('stamp-evidence', text, signed, key) === 'valid')
      return { results: await started.results, fromEvidence: true };
  }
  const results = started.evidence ? startStampGit(started.options, started.files) : started.results;
  return { results: await results, fromEvidence: false };
}

/** What `git rev-parse` said of the repository; undefined when it is not one. */
function repoFactsOf(repo: GitResult): RepoFiles | undefined {
  if (repo.code !== 0) return undefined;
  const [top = '', indexPath = '', objectFormat = '', ...refs] = repo.stdout.split('\n');
  return { top, indexPath, objectFormat, refs: refs.join('\n') };
}

/** A state file's bytes, or why it could not be read (ENOENT: there is none). */
async function readStateBytes(path: string): Promise<Buffer | string> {
  try {
    return await readFile(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'error';
  }
}

/**
 * What the index says of the stamp: whether it may hide entries from `git status` (`index-flags.ts`), and the paths of
 * its second-blind entries (undefined when it was not understood, or one is not UTF-8); a missing index (no commit
 * yet) hides nothing and has no entries.
 */
async function indexFactsAt(
  path: string,
  objectFormat: string,
  repoRoot: string,
): Promise<{ mayHide: boolean; blind: string[] | undefined }> {
  let index: Buffer;
  let times: IndexFileTimes;
  try {
    // Its times after its bytes: an index written or touched meanwhile only makes more entries looked at.
    index = await readFile(path);
    times = await stat(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'
      ? { mayHide: false, blind: [] }
      : { mayHide: true, blind: undefined };
  }
  const facts = readIndexFacts(index, objectFormat, repoRoot, TOLLGATE_DIR, times);
  if (facts.mayHide) return { mayHide: true, blind: undefined };
  const paths = facts.blind?.flatMap(({ path }) => (path === undefined ? [] : [path]));
  return { mayHide: false, blind: paths?.length === facts.blind?.length ? paths : undefined };
}
