import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { handOffBase } from '../change-set/base-handoff.js';
import { createGitRunner } from '../change-set/git.js';
import { pinBase } from '../change-set/pin-base.js';
import { resolveBaseWithHead } from '../change-set/resolve-base.js';
import type { ChangeSetBase } from '../change-set/types.js';
import { TollgateError } from '../errors.js';
import { readTrustedCommits } from '../state/history-store.js';
import type { PolicyReader } from '../state/policy-reader.js';
import { compareText } from '../text-order.js';
import { isAccepted, type PolicyAcceptance, readAcceptances } from './acceptances.js';
import { type BaseTree, baseTree } from './base-tree.js';
import type { ConfigEditEffects } from './config-edit-effects.js';

/**
 * Policy from the base: the files that decide how the gate judges a change (the config, the committed waivers, the
 * secret scanner's baselines and ignore lists) count as the base commit has them. An edit the change makes to one is
 * applied only once a person accepted that exact edit (`tollgate policy accept`); until then it is pending: the base's
 * content applies, and the run lists the pending edit as a finding that blocks.
 */
export type PolicyMode =
  /** Local runs: the base's policy, or an edit a person accepted on this machine. */
  | 'local'
  /** CI (`TOLLGATE_POLICY=base`): the base's policy, no acceptances. */
  | 'base'
  /** Not a git repository: there is no base, the files are read as they are. */
  | 'unversioned';

export interface PolicyFile {
  /** Repository-relative, `/`-separated. */
  path: string;
  /** Git blob ids in the base and in the working copy; null where there is no file. */
  base: string | null;
  working: string | null;
  /** `changed`: the working copy differs from the base and no person accepted that edit. */
  status: 'unchanged' | 'changed' | 'accepted';
  /** The bytes the gate reads: the working copy unless `changed`, then the base's. */
  effective: Buffer | null;
  /** Both sides, kept when they differ (for `tollgate policy` to show the edit). */
  baseBytes?: Buffer | null;
  workingBytes?: Buffer | null;
}

export interface EffectivePolicy extends PolicyReader {
  readonly mode: PolicyMode;
  readonly repoRoot: string;
  /** The commit the policy is read from; null without commits (every policy file is then a change). */
  readonly baseCommit: string | null;
  /** How the base was chosen (resolved, pinned, named); absent outside a repository. */
  readonly base?: ChangeSetBase;
  /** What the pending edit of the config would change, had it applied; absent when the config is not pending. */
  readonly configEdit?: ConfigEditEffects;
  readonly files: ReadonlyMap<string, PolicyFile>;
  /** Edits not (yet) accepted: the gate ignores them and blocks. */
  pending(): PolicyFile[];
  /**
   * The bytes the gate reads for a file: a policy file's effective content, anything else from disk. Null when
   * there is no file.
   */
  read(absolute: string): Promise<Buffer | null>;
  /** Changes the config hash when an edit is pending or accepted; '' when the working copy is the base's policy. */
  digest(): string;
}

export interface PolicyResolverOptions {
  repoRoot: string;
  env: NodeJS.ProcessEnv;
  /** A base the user named (`--base`, the start of `scan --history A..B`); default: the change set's default base. */
  base?: string | undefined;
}

/** Builds the effective policy in steps: the config's files first, then the files that config names. */
export class PolicyResolver {
  private readonly files = new Map<string, PolicyFile>();
  private constructor(
    private readonly repoRoot: string,
    readonly mode: PolicyMode,
    private readonly tree: BaseTree | null,
    private readonly accepted: readonly PolicyAcceptance[],
    private readonly base: ChangeSetBase | null,
  ) {}

  static async open(options: PolicyResolverOptions): Promise<PolicyResolver> {
    const mode = policyModeOf(options.env);
    const git = createGitRunner(options.repoRoot);
    const base = await baseOf(git, options.repoRoot, options.base === undefined ? {} : { flag: options.base });
    if (base === undefined) return new PolicyResolver(options.repoRoot, 'unversioned', null, [], null);
    const accepted = mode === 'base' ? [] : await readAcceptances(options.repoRoot);
    return new PolicyResolver(options.repoRoot, mode, baseTree(git, base.commit), accepted, base);
  }

  /** The same resolver, reading the base at another revision (the base config's own `base:`). */
  async rebased(base: string, env: NodeJS.ProcessEnv): Promise<PolicyResolver> {
    const git = createGitRunner(this.repoRoot);
    const chosen = await baseOf(git, this.repoRoot, { config: base });
    if (chosen === undefined || chosen.commit === this.tree?.commit) return this;
    return new PolicyResolver(this.repoRoot, policyModeOf(env), baseTree(git, chosen.commit), this.accepted, chosen);
  }

  get baseCommit(): string | null {
    return this.tree?.commit ?? null;
  }

  /** Repository-relative path of a file, or null when it is outside the repository (the user's own policy). */
  pathOf(file: string): string | null {
    const rel = relative(this.repoRoot, resolve(this.repoRoot, file));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
    return rel.split(sep).join('/');
  }

  /**
   * Decides these repository paths (once each) and returns their states. `ahead`: paths a later call will likely
   * decide, whose base blob ids are listed now by the same git process.
   */
  async resolve(paths: readonly string[], ahead: readonly string[] = []): Promise<PolicyFile[]> {
    const fresh = [...new Set(paths)].filter((path) => !this.files.has(path));
    const working = await Promise.all(fresh.map((path) => readOrNull(resolve(this.repoRoot, path))));
    if (!this.tree) {
      fresh.forEach((path, index) => {
        const bytes = working[index] ?? null;
        this.files.set(path, { path, base: null, working: null, status: 'unchanged', effective: bytes });
      });
      return paths.map((path) => this.files.get(path)!);
    }
    const tree = this.tree;
    const baseIds = await tree.blobIds(fresh, ahead);
    const differing = fresh.filter((path, index) => {
      const bytes = working[index] ?? null;
      return (bytes === null ? null : tree.blobIdOf(bytes)) !== (baseIds.get(path) ?? null);
    });
    const baseBytes = await tree.contents(differing.map((path) => baseIds.get(path)).filter((id) => id !== undefined));
    fresh.forEach((path, index) => {
      const bytes = working[index] ?? null;
      const base = baseIds.get(path) ?? null;
      const workingId = bytes === null ? null : tree.blobIdOf(bytes);
      if (!differing.includes(path)) {
        this.files.set(path, { path, base, working: workingId, status: 'unchanged', effective: bytes });
        return;
      }
      const before = base === null ? null : (baseBytes.get(base) ?? null);
      this.files.set(path, this.decide({ path, base, working: workingId }, before, bytes));
    });
    return paths.map((path) => this.files.get(path)!);
  }

  private decide(
    step: { path: string; base: string | null; working: string | null },
    before: Buffer | null,
    after: Buffer | null,
  ): PolicyFile {
    const sides = { baseBytes: before, workingBytes: after };
    // A checkout with `core.autocrlf` has CRLF where the commit has LF: the same policy, not an edit.
    if (before !== null && after !== null && sameText(before, after)) {
      return { ...step, status: 'unchanged', effective: after };
    }
    const accepted = isAccepted(this.accepted, { path: step.path, from: step.base, to: step.working });
    return accepted
      ? { ...step, status: 'accepted', effective: after, ...sides }
      : { ...step, status: 'changed', effective: before, ...sides };
  }

  /** The policy as decided so far. */
  policy(): EffectivePolicy {
    const files = new Map(this.files);
    const { repoRoot, mode, baseCommit } = this;
    return {
      mode,
      repoRoot,
      baseCommit,
      ...(this.base ? { base: this.base } : {}),
      files,
      pending: () => [...files.values()].filter((file) => file.status === 'changed'),
      read: async (absolute) => {
        const rel = relative(repoRoot, absolute).split(sep).join('/');
        const file = files.get(rel);
        return file ? file.effective : readOrNull(absolute);
      },
      digest: () => policyDigest(files.values()),
    };
  }
}

/** `TOLLGATE_POLICY`: `base` in CI (the Action sets it), unset or `local` elsewhere. */
export function policyModeOf(env: NodeJS.ProcessEnv): 'local' | 'base' {
  const value = env.TOLLGATE_POLICY?.trim() ?? '';
  if (value === '' || value === 'local') return 'local';
  if (value === 'base') return 'base';
  throw new TollgateError(
    'config',
    `TOLLGATE_POLICY: expected "base" (policy from the base commit only, as in CI) or "local", got ${JSON.stringify(value)}`,
  );
}

/** The working copy's policy as it is, for code that runs outside a repository or in unit tests. */
export function workingCopyPolicy(repoRoot: string): EffectivePolicy {
  return {
    mode: 'unversioned',
    repoRoot,
    baseCommit: null,
    files: new Map(),
    pending: () => [],
    read: readOrNull,
    digest: () => '',
  };
}

function policyDigest(files: Iterable<PolicyFile>): string {
  const touched = [...files].filter((file) => file.status !== 'unchanged').sort((a, b) => compareText(a.path, b.path));
  if (touched.length === 0) return '';
  const hash = createHash('sha256');
  for (const file of touched) hash.update(`${file.path}\0${file.status}\0${file.base}\0${file.working}\0`);
  return hash.digest('hex');
}

/**
 * The base whose policy applies: the base the change set uses, pinned as it pins it (pin-base.ts), so that moving a
 * ref to commits the agent made cannot turn the agent's committed policy edit into "the base's policy". A base a
 * person names (`--base`, the config's `base:`) is taken as named. Its commit is null without commits; undefined
 * when this is not a git repository at all.
 */
async function baseOf(
  git: ReturnType<typeof createGitRunner>,
  repoRoot: string,
  named: { flag?: string; config?: string },
): Promise<(ChangeSetBase & { commit: string | null }) | undefined> {
  const isNamed = named.flag !== undefined || named.config !== undefined;
  // Read while git lists the refs: the pinning below needs it.
  const trustedCommits = isNamed ? undefined : readTrustedCommits(repoRoot);
  trustedCommits?.catch(() => undefined); // awaited below
  try {
    const { base: resolved, head: headOf } = await resolveBaseWithHead(git, named);
    if (isNamed || resolved.commit === null) return resolved;
    const [head, trusted] = await Promise.all([headOf(), trustedCommits]);
    const pinned = await pinBase(git, { root: repoRoot, resolved, head, trusted });
    handOffBase(repoRoot, head, trusted, pinned);
    return pinned;
  } catch (error) {
    const inside = await git.run(['rev-parse', '--is-inside-work-tree']);
    if (inside.exitCode !== 0) return undefined;
    throw error;
  }
}

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw error;
  }
}

function sameText(a: Buffer, b: Buffer): boolean {
  return a.toString('utf8').replace(/\r\n/g, '\n') === b.toString('utf8').replace(/\r\n/g, '\n');
}
