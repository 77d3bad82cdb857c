import { z } from 'zod';
import { TollgateError } from '../../../../core/errors.js';
import { runProcess } from '../../../../core/process.js';
import type { GraphqlClient } from '../../graphql-client.js';
import { BRANCH_PROTECTION_QUERY } from '../../graphql-documents.js';
import type { GithubRepository } from '../../repository.js';
import type { CommitGroup } from './commit-groups.js';

/** A commit `--commit` made, and whether `--push` sent it. */
export interface MadeCommit {
  sha: string;
  threadIds: string[];
  files: string[];
}

export interface CommitFixesInput {
  repoRoot: string;
  env: NodeJS.ProcessEnv;
  client: GraphqlClient;
  repository: GithubRepository;
  prNumber: number;
  groups: readonly CommitGroup[];
  push: boolean;
  /** The payload as the person named it, for messages (`fix.json`). */
  label: string;
}

export interface CommitFixesResult {
  commits: MadeCommit[];
  /** `origin feature` when pushed. */
  pushedTo: string | null;
}

/**
 * Ruleset rules that stop a direct push (or make tollgate's commits unacceptable) on the branch. Others (no force
 * push, linear history, tag rules) leave an ordinary push of new commits alone.
 */
const PUSH_BLOCKING_RULES = new Set([
  'UPDATE',
  'LOCK_BRANCH',
  'PULL_REQUEST',
  'MERGE_QUEUE',
  'REQUIRED_STATUS_CHECKS',
  'REQUIRED_DEPLOYMENTS',
  'REQUIRED_SIGNATURES',
  'REQUIRED_WORKFLOW_STATUS_CHECKS',
  'WORKFLOWS',
]);

const branchProtectionSchema = z.object({
  repository: z
    .object({
      defaultBranchRef: z.object({ name: z.string() }).nullable(),
      pullRequest: z.object({ headRefName: z.string() }).nullable(),
      ref: z
        .object({
          name: z.string(),
          branchProtectionRule: z.object({ pattern: z.string() }).nullable(),
          rules: z.object({ nodes: z.array(z.object({ type: z.string() }).nullable()).nullable() }).nullable(),
        })
        .nullable(),
    })
    .nullable(),
});

const NOTHING_DONE = 'nothing committed, pushed or posted';

/**
 * `fix-comments --commit [--push]`: checks, before anything is applied, that the branch may take the commits and the
 * tree holds only the named fixes; then commits each group and pushes. Every refusal names the next command.
 */
export async function commitFixes(input: CommitFixesInput): Promise<CommitFixesResult> {
  const git = gitIn(input);
  const flag = input.push ? '--commit --push' : '--commit';
  const branch = await checkBranch(input, git, flag);
  await checkTree(input, git, flag);

  const commits: MadeCommit[] = [];
  for (const group of input.groups) {
    await git.must(['add', '--all', '--', ...group.files], `stage ${group.files.join(', ')}`);
    const committed = await git.run(['commit', '--quiet', '--file', '-'], group.message);
    if (committed.exitCode !== 0) {
      const made = commits.length > 0 ? ` (made: ${commits.map((c) => c.sha.slice(0, 12)).join(', ')})` : '';
      throw new TollgateError(
        'usage',
        `fix-comments ${flag}: git commit failed for ${group.threadIds.join(', ')}: ${firstLine(committed.stderr || committed.stdout)}${made}; nothing pushed or posted. Fix it, commit by hand (git commit), set commitSha in ${input.label}, and rerun without --commit`,
      );
    }
    const sha = (await git.must(['rev-parse', 'HEAD'], 'read the new commit')).trim();
    commits.push({ sha, threadIds: group.threadIds, files: group.files });
  }
  if (!input.push) return { commits, pushedTo: null };

  const pushed = await git.run(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
  if (pushed.exitCode !== 0) {
    throw new TollgateError(
      'usage',
      `fix-comments --push: git push origin ${branch} failed: ${firstLine(pushed.stderr)}; the commits are made locally (${commits.map((c) => c.sha.slice(0, 12)).join(', ')}), nothing posted. Push them (git push origin ${branch}), then rerun with commitSha set and without --commit`,
    );
  }
  return { commits, pushedTo: `origin ${branch}` };
}

function gitIn(input: CommitFixesInput) {
  const run = (args: string[], stdin?: string) =>
    runProcess('git', args, {
      cwd: input.repoRoot,
      env: input.env,
      timeoutMs: 120_000,
      ...(stdin !== undefined ? { input: stdin } : {}),
    });
  return {
    run,
    async must(args: string[], what: string): Promise<string> {
      const result = await run(args);
      if (result.exitCode !== 0) {
        throw new TollgateError('io', `fix-comments --commit: could not ${what}: ${firstLine(result.stderr)}`);
      }
      return result.stdout;
    },
  };
}

type Git = ReturnType<typeof gitIn>;

/** The checked-out branch must be the PR's head, not the default branch, and not protected on GitHub. */
async function checkBranch(input: CommitFixesInput, git: Git, flag: string): Promise<string> {
  const symbolic = await git.run(['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const local = symbolic.exitCode === 0 ? symbolic.stdout.trim() : null;
  const data = await input.client.request(
    BRANCH_PROTECTION_QUERY,
    {
      owner: input.repository.owner,
      name: input.repository.name,
      number: input.prNumber,
      ref: `refs/heads/${local ?? 'HEAD'}`,
    },
    branchProtectionSchema,
  );
  const where = `${input.repository.owner}/${input.repository.name}`;
  const head = data.repository?.pullRequest?.headRefName;
  if (!head) {
    throw new TollgateError(
      'usage',
      `fix-comments ${flag}: GitHub has no PR #${input.prNumber} in ${where}; ${NOTHING_DONE}`,
    );
  }
  if (local === null) {
    throw new TollgateError(
      'usage',
      `fix-comments ${flag}: HEAD is detached, so there is no branch to commit to; ${NOTHING_DONE}. Check out the PR branch first: git switch ${head}`,
    );
  }
  if (local !== head) {
    throw new TollgateError(
      'usage',
      `fix-comments ${flag}: the checked-out branch ${local} is not ${head}, the head of ${where}#${input.prNumber}; ${NOTHING_DONE}. Switch first: git switch ${head}`,
    );
  }
  const topic = `git switch -c review-fixes-${input.prNumber}`;
  if (data.repository?.defaultBranchRef?.name === local) {
    throw new TollgateError(
      'usage',
      `fix-comments ${flag}: ${local} is the default branch of ${where}; ${NOTHING_DONE}. Commit the fixes on a topic branch and open a pull request: ${topic}`,
    );
  }
  const ref = data.repository?.ref;
  const reasons = [
    ...(ref?.branchProtectionRule
      ? [`branch protection rule ${JSON.stringify(ref.branchProtectionRule.pattern)}`]
      : []),
    ...[
      ...new Set(
        (ref?.rules?.nodes ?? []).flatMap((rule) => (rule && PUSH_BLOCKING_RULES.has(rule.type) ? [rule.type] : [])),
      ),
    ].map((type) => `ruleset rule ${type.toLowerCase()}`),
  ];
  if (reasons.length > 0) {
    throw new TollgateError(
      'usage',
      `fix-comments ${flag}: ${local} is protected on GitHub (${reasons.join(', ')}); ${NOTHING_DONE}. Commit the fixes on a topic branch and open a pull request: ${topic}`,
    );
  }
  return local;
}

/**
 * Before anything is applied: nothing staged (it would ride along in the first commit), no change outside the
 * payload's `files` (it would be left out or mixed in), and every named file changed.
 */
async function checkTree(input: CommitFixesInput, git: Git, flag: string): Promise<void> {
  const status = await git.must(
    ['status', '--porcelain=v1', '-z', '--untracked-files=all'],
    'read the work tree status',
  );
  const entries = parsePorcelain(status);
  const staged = entries.filter((entry) => entry.staged).map((entry) => entry.path);
  if (staged.length > 0) {
    throw new TollgateError(
      'usage',
      `fix-comments ${flag}: changes are already staged (${listed(staged)}); ${NOTHING_DONE}. Commit them yourself or unstage them first: git restore --staged -- ${staged.map(quoted).join(' ')}`,
    );
  }
  const named = new Set(input.groups.flatMap((group) => group.files));
  const stray = entries.filter((entry) => !named.has(entry.path)).map((entry) => entry.path);
  if (stray.length > 0) {
    throw new TollgateError(
      'usage',
      `fix-comments ${flag}: the work tree has changes no item of ${input.label} lists in files (${listed(stray)}); ${NOTHING_DONE}. Commit or stash them first: git stash push --include-untracked -- ${stray.map(quoted).join(' ')}`,
    );
  }
  const changed = new Set(entries.map((entry) => entry.path));
  for (const group of input.groups) {
    const unchanged = group.files.filter((file) => !changed.has(file));
    if (unchanged.length > 0) {
      throw new TollgateError(
        'usage',
        `fix-comments ${flag}: ${input.label} files of ${group.threadIds.join(', ')} name ${listed(unchanged)}, which has no change to commit; ${NOTHING_DONE}. Drop it from files, or set commitSha to the commit that holds the fix`,
      );
    }
  }
}

/** `git status --porcelain=v1 -z`: XY, a space, the path; a rename or copy is followed by its source path. */
function parsePorcelain(text: string): Array<{ path: string; staged: boolean }> {
  const fields = text.split('\0');
  const entries: Array<{ path: string; staged: boolean }> = [];
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    if (field.length < 4) continue;
    const x = field[0]!;
    entries.push({ path: field.slice(3), staged: x !== ' ' && x !== '?' });
    if (x === 'R' || x === 'C') index++;
  }
  return entries;
}

const firstLine = (text: string) => text.trim().split('\n')[0] ?? '';
const quoted = (path: string) => (/^[\w./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`);
const listed = (paths: readonly string[]) =>
  paths.length <= 3 ? paths.join(', ') : `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more`;
