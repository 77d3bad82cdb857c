import { TollgateError } from '../errors.js';
import type { GitRunner } from './git.js';
import type { ChangeSetBase } from './types.js';

export interface ResolveBaseOptions {
  /** `--base REV` */
  flag?: string;
  /** `base:` from tollgate.config.yaml */
  config?: string;
}

/**
 * Picks the commit the change is measured against: the flag, else the config, else the merge-base of HEAD with its
 * upstream or the default branch (`origin/HEAD`, then `main`, then `master`), else HEAD. A repository without commits
 * has no base (everything is added). In the usual case this is one or two git calls: `for-each-ref`, and `merge-base`
 * unless the candidate's tip is HEAD itself.
 */
export async function resolveBase(git: GitRunner, options: ResolveBaseOptions): Promise<ChangeSetBase> {
  return (await resolveBaseWithHead(git, options)).base;
}

export interface BaseResolution {
  base: ChangeSetBase;
  /**
   * HEAD's commit (null before the first commit): from the same `for-each-ref` when HEAD is on a branch, else one
   * `rev-parse`, run on the first call only.
   */
  head(): Promise<string | null>;
}

/** `resolveBase`, and HEAD's commit as the same refs listing saw it (the policy reading needs both). */
export async function resolveBaseWithHead(git: GitRunner, options: ResolveBaseOptions): Promise<BaseResolution> {
  let head: Promise<string | null> | undefined;
  const headOf = () => {
    head ??= verifyCommit(git, 'HEAD');
    return head;
  };
  if (options.flag !== undefined) {
    const base = { ref: options.flag, commit: await verifyNamed(git, options.flag, '--base'), source: 'flag' as const };
    return { base, head: headOf };
  }
  if (options.config !== undefined) {
    const commit = await verifyNamed(git, options.config, 'tollgate.config.yaml base');
    return { base: { ref: options.config, commit, source: 'config' }, head: headOf };
  }
  const refs = await listRefs(git);
  if (refs.head !== undefined) head = Promise.resolve(refs.head);
  for (const candidate of refs.candidates) {
    // The merge-base of HEAD with its own commit is that commit: no process to ask (the usual case on main).
    const commit = refs.head != null && candidate.tip === refs.head ? refs.head : await mergeBase(git, candidate.rev);
    if (commit !== null) {
      const base = { ref: candidate.name, commit, source: candidate.source, refName: candidate.rev };
      return { base, head: headOf };
    }
  }
  const commit = await headOf();
  if (commit === null) return { base: { ref: null, commit: null, source: 'empty' }, head: headOf };
  return { base: { ref: 'HEAD', commit, source: 'head' }, head: headOf };
}

interface BaseCandidate {
  /** Full ref name for git. */
  rev: string;
  /** Short name for people (`origin/main`). */
  name: string;
  source: 'upstream' | 'default-branch';
  /** The commit the ref points at, when the listing showed it. */
  tip?: string;
}

interface ListedRefs {
  candidates: BaseCandidate[];
  /** HEAD's commit when HEAD is a branch that points at a commit; undefined when the listing cannot say. */
  head?: string;
}

const REF_FORMAT = [
  '%(HEAD)',
  '%(refname)',
  '%(refname:short)',
  '%(upstream)',
  '%(upstream:short)',
  '%(symref)',
  '%(symref:short)',
  '%(objectname)',
  '%(objecttype)',
].join('%00');

/**
 * The current branch's upstream, then the default-branch candidates that exist, from one `for-each-ref`, with the
 * commit each points at and HEAD's own when HEAD is a branch (a detached HEAD is not in `refs/heads/`).
 */
async function listRefs(git: GitRunner): Promise<ListedRefs> {
  const output = await git.output([
    'for-each-ref',
    `--format=${REF_FORMAT}`,
    'refs/heads/',
    'refs/remotes/origin/HEAD',
  ]);
  let upstream: BaseCandidate | null = null;
  let originHead: BaseCandidate | null = null;
  let head: string | undefined;
  const branches = new Map<string, BaseCandidate>();
  const tips = new Map<string, string>();
  for (const line of output.split('\n')) {
    const [isHead, refname, short, upstreamRef, upstreamShort, symref, symrefShort, id, type] = line.split('\0');
    if (!refname || !short) continue;
    // A ref to a tag or a tree has no tip to compare: merge-base (or rev-parse) says what it means.
    const tip = type === 'commit' && id ? id : undefined;
    if (refname === 'refs/remotes/origin/HEAD') {
      if (symref && symrefShort) originHead = { rev: symref, name: symrefShort, source: 'default-branch' };
      if (symref && tip) tips.set(symref, tip);
      continue;
    }
    if (tip) tips.set(refname, tip);
    if (isHead === '*') {
      head = tip;
      if (upstreamRef && upstreamShort) upstream = { rev: upstreamRef, name: upstreamShort, source: 'upstream' };
    }
    branches.set(refname, { rev: refname, name: short, source: 'default-branch' });
  }
  const candidates = [upstream, originHead, branches.get('refs/heads/main'), branches.get('refs/heads/master')]
    .filter((candidate): candidate is BaseCandidate => candidate != null)
    .map((candidate) => {
      const tip = tips.get(candidate.rev);
      return tip ? { ...candidate, tip } : candidate;
    });
  return head === undefined ? { candidates } : { candidates, head };
}

async function verifyNamed(git: GitRunner, rev: string, where: string): Promise<string> {
  const commit = rev.trim() === '' ? null : await verifyCommit(git, rev);
  if (commit === null) {
    throw new TollgateError(
      'bad_revision',
      `${where}: git does not know revision ${JSON.stringify(rev)} (expected a commit, branch or tag)`,
    );
  }
  return commit;
}

/** The commit a revision names, or null. `--end-of-options` keeps a revision like `-x` from being read as an option. */
export async function verifyCommit(git: GitRunner, rev: string): Promise<string | null> {
  const result = await git.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  const commit = result.stdout.trim();
  return result.exitCode === 0 && commit !== '' ? commit : null;
}

/** Null when HEAD has no commit yet or the histories are unrelated. */
async function mergeBase(git: GitRunner, rev: string): Promise<string | null> {
  const result = await git.run(['merge-base', 'HEAD', rev]);
  const commit = result.stdout.trim();
  return result.exitCode === 0 && commit !== '' ? commit : null;
}
