import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fixedGitEnv } from '../change-set/snapshot-git-config.js';
import { readSavedEvidence } from './stamp-evidence-read.js';
import { type GitResult, gitAll } from './stamp-git.js';
import { type RepoFiles, repoFilesOf } from './stamp-repo-files.js';

/**
 * The first half of a tree stamp (tree-stamp.ts): its git processes, started. Kept apart, with nothing but what
 * starting git needs (no hashing, no signed state, no promise-based file API), so that a fast path's small bundle
 * starts git before it loads the rest of what its answer needs: git then works on the other core while Node loads
 * and compiles that rest, instead of after it.
 */
export interface StampOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** tollgate's version: another version may answer differently. */
  version: string;
  /** What the stamp is for ('stop', 'run'); stamps for different purposes never match. */
  purpose: string;
  /** Hash every ref too (names and commits; the branch's upstream is in the status): a run's base is read from refs. */
  refs?: boolean;
}

/** A stamp whose git is running: `finishStamp` (tree-stamp.ts) makes the stamp of it. */
export interface StartedStamp {
  options: StampOptions;
  /** The root, index and refs read from the repository's files; undefined when git rev-parse was asked instead. */
  files: RepoFiles | undefined;
  /** git status, the filter config, and (without `files`) git rev-parse, in that order. */
  results: Promise<GitResult[]>;
  /**
   * The saved evidence (stamp-evidence.ts) that held, whose recorded answer `results` holds instead of git's: the
   * object read and the file's text. Its signature is checked on that text before the stamp uses it (`finishStamp`,
   * `checkSignatureOfText`), and git is asked after all when it does not hold.
   */
  evidence?: { signed: Record<string, unknown>; text: string };
}

const REPO = ['rev-parse', '--show-toplevel', '--git-path', 'index', '--show-object-format'];
/** Every ref's commit, then every ref's name, in the same order: the refs in the same process as the root. */
const REFS = ['--all', '--symbolic-full-name', '--all'];
export const STATUS = ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=all'];
export const FILTERS = ['config', '-z', '--get-regexp', '^filter\\..*\\.(clean|process)$'];

/**
 * Starts the stamp's git processes, or takes their answer from saved evidence that still holds (no git at all); never
 * throws (a git that cannot start gives results that vouch for nothing).
 */
export function startStamp(options: StampOptions): StartedStamp {
  const { cwd, env } = options;
  // The root, index and refs from the repository's files where its layout is the plain one (a git process fewer),
  // else from `git rev-parse`.
  const files = repoFilesOf(cwd, env, options.refs === true);
  const saved = files && options.refs ? readSavedEvidence(files, cwd, env) : undefined;
  if (saved) {
    const evidence = { signed: saved.signed, text: saved.text };
    return { options, files, results: Promise.resolve(saved.results), evidence };
  }
  return { options, files, results: startStampGit(options, files) };
}

/** The stamp's git: status first (it takes longest), all at once, started by one shell (stamp-git.ts). */
export function startStampGit(options: StampOptions, files: RepoFiles | undefined): Promise<GitResult[]> {
  const revParse = options.refs ? [...REPO, ...REFS] : REPO;
  return gitAll(files ? [STATUS, FILTERS] : [STATUS, FILTERS, revParse], options.cwd, stampGitEnv(options.env));
}

/**
 * The environment of a stamp's git. The C locale: these commands' output is the same bytes in every locale
 * (porcelain, -z), and each git then skips loading the user's locale and message catalogue, a tenth of its start.
 */
export function stampGitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...fixedGitEnv(env), LC_ALL: 'C' };
}

/**
 * The work tree root, as `cwd` sees it, holding `relativePath` (a fast path's saved answer); null when the first
 * folder up from `cwd` that holds `.git` does not. So a fast path can read its saved answer while git takes the
 * stamp; the stamp's root must then be the same folder.
 */
export function findSaved(cwd: string, relativePath: string): string | null {
  // Synchronous: a few cached `lstat`s, done before git starts, cost less than their trips through the thread pool.
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, relativePath))) return dir;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return null;
  }
}
