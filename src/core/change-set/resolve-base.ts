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
 * has no base (everything is added). In the usual case this is two git calls: `for-each-ref` and `merge-base`.
 */
export async function resolveBase(git: GitRunner, options: ResolveBaseOptions): Promise<ChangeSetBase> {
  if (options.flag !== undefined) {
    return { ref: options.flag, commit: await verifyNamed(git, options.flag, '--base'), source: 'flag' };
  }
  if (options.config !== undefined) {
    return {
      ref: options.config,
      commit: await verifyNamed(git, options.config, 'tollgate.config.yaml base'),
      source: 'config',
    };
  }
  for (const candidate of await baseCandidates(git)) {
    const commit = await mergeBase(git, candidate.rev);
    if (commit !== null) return { ref: candidate.name, commit, source: candidate.source, refName: candidate.rev };
  }
  const head = await verifyCommit(git, 'HEAD');
  if (head === null) return { ref: null, commit: null, source: 'empty' };
  return { ref: 'HEAD', commit: head, source: 'head' };
}

interface BaseCandidate {
  /** Full ref name for git. */
  rev: string;
  /** Short name for people (`origin/main`). */
  name: string;
  source: 'upstream' | 'default-branch';
}

const REF_FORMAT = [
  '%(HEAD)',
  '%(refname)',
  '%(refname:short)',
  '%(upstream)',
  '%(upstream:short)',
  '%(symref)',
  '%(symref:short)',
].join('%00');

/** The current branch's upstream, then the default-branch candidates that exist, from one `for-each-ref`. */
async function baseCandidates(git: GitRunner): Promise<BaseCandidate[]> {
  const output = await git.output([
    'for-each-ref',
    `--format=${REF_FORMAT}`,
    'refs/heads/',
    'refs/remotes/origin/HEAD',
  ]);
  let upstream: BaseCandidate | null = null;
  let originHead: BaseCandidate | null = null;
  const branches = new Map<string, BaseCandidate>();
  for (const line of output.split('\n')) {
    const [isHead, refname, short, upstreamRef, upstreamShort, symref, symrefShort] = line.split('\0');
    if (!refname || !short) continue;
    if (refname === 'refs/remotes/origin/HEAD') {
      if (symref && symrefShort) originHead = { rev: symref, name: symrefShort, source: 'default-branch' };
      continue;
    }
    if (isHead === '*' && upstreamRef && upstreamShort) {
      upstream = { rev: upstreamRef, name: upstreamShort, source: 'upstream' };
    }
    branches.set(refname, { rev: refname, name: short, source: 'default-branch' });
  }
  const candidates = [upstream, originHead, branches.get('refs/heads/main'), branches.get('refs/heads/master')];
  return candidates.filter((candidate): candidate is BaseCandidate => candidate != null);
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
