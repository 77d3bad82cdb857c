import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Finding, makeFinding } from '../../core/finding.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { TOLLGATE_VERSION } from '../../core/version.js';
import { messageCommitOf } from '../../secrets/commit-message-place.js';
import type { SecretsOptions } from '../../secrets/options.js';
import { type ScanTargetsOptions, type SkippedTarget, scanBatches } from '../../secrets/scan-targets.js';
import { historyBatches } from '../../secrets/sources/git-sources.js';
import { type CachedSecret, readCommitScans, toCachedSecret, writeCommitScans } from './commit-cache.js';

/**
 * The commits since the base, each scanned on its own (what it added, `--cc` for merges), as `tollgate scan --history`
 * does: a key added in one commit and deleted in the next is not in the tree but is still pushed with the branch.
 * Results are cached by commit id (commit-cache.ts), so only commits never seen under the same rules are scanned.
 */
export interface HistoryScan {
  /** One per secret (by fingerprint) not also in the tree, with the commits that added it. */
  secrets: HistorySecret[];
  /** Commits since the base. */
  commits: number;
  /** Of those, scanned by this run (the rest came from the cache). */
  scanned: number;
  /** What could not be examined (a blob too large): the result cannot be a pass. */
  unexamined: SkippedTarget[];
  /** Blobs this run scanned for their printable runs only, as `<commit>:<path>` (see `ScanOutcome.binaryRuns`). */
  scannedAsBinary: string[];
}

export interface HistorySecret extends CachedSecret {
  commits: string[];
}

type SecretsContext = ToolContext<SecretsOptions, { paths?: string[] | undefined }>;

export async function scanCommitsSinceBase(
  ctx: SecretsContext,
  scanOptions: ScanTargetsOptions,
  inTree: ReadonlySet<string>,
): Promise<HistoryScan> {
  const { base, head } = ctx.changeSet;
  const commits = await listCommits(ctx, base.commit, head);
  const key = await cacheKey(ctx, scanOptions);
  const cache = await readCommitScans(ctx.repoRoot, key);
  const unseen = commits.filter((commit) => !cache.has(commit));
  let unexamined: SkippedTarget[] = [];
  let scannedAsBinary: string[] = [];
  if (unseen.length > 0) {
    ctx.progress(`scanning ${unseen.length} commit(s) since the base for secrets`);
    // Every line a commit of the change wrote is a line the change added: an allow marker on it is the change's own.
    const gate = scanOptions.gate ? { ...scanOptions.gate, addedLine: () => true } : undefined;
    const outcome = await scanBatches(
      historyBatches({ repoRoot: ctx.repoRoot, env: ctx.env, range: `${head}`, commits: unseen, signal: ctx.signal }),
      { ...scanOptions, ...(gate ? { gate } : {}), onProgress: undefined },
    );
    unexamined = outcome.skipped.filter((file) => file.reason === 'unreadable' || file.reason === 'too_large');
    scannedAsBinary = outcome.binaryRuns;
    const found = new Map<string, CachedSecret[]>(unseen.map((commit) => [commit, []]));
    for (const finding of outcome.findings) found.get(finding.commit ?? '')?.push(toCachedSecret(finding));
    // Only a scan that saw everything and was not cut short may vouch for a commit later.
    if (unexamined.length === 0 && !ctx.signal.aborted) {
      for (const [commit, secrets] of found) cache.set(commit, secrets);
      await writeCommitScans(ctx.repoRoot, key, cache).catch(() => {});
    }
    for (const commit of unseen) if (!cache.has(commit)) cache.set(commit, found.get(commit) ?? []);
  }
  return {
    secrets: bySecret(commits, cache, inTree),
    commits: commits.length,
    scanned: unseen.length,
    unexamined,
    scannedAsBinary,
  };
}

/** Oldest first. Without a base (a history tollgate trusts nothing of), every commit of HEAD. */
async function listCommits(ctx: SecretsContext, base: string | null, head: string | null): Promise<string[]> {
  if (head === null) return [];
  const range = base === null ? [head] : [`${base}..${head}`];
  const result = await ctx.runProcess('git', ['rev-list', '--reverse', ...range, '--'], {
    cwd: ctx.repoRoot,
    env: ctx.env,
    timeoutMs: 600_000,
    maxOutputBytes: 256 * 1024 * 1024,
  });
  if (result.exitCode !== 0) throw new Error(`git rev-list failed: ${result.stderr.trim()}`);
  return result.stdout.split('\n').filter(Boolean);
}

/** What decides a commit's findings besides its content: the rules (this version), the options and suppressions. */
async function cacheKey(ctx: SecretsContext, scanOptions: ScanTargetsOptions): Promise<string> {
  const hash = createHash('sha256').update(`tollgate ${TOLLGATE_VERSION}\0`).update(JSON.stringify(ctx.options));
  hash.update(`\0${[...(scanOptions.baseline ?? [])].sort().join(',')}`);
  hash.update(`\0${scanOptions.gate?.baselineCommitted ?? '-'} ${scanOptions.gate?.importsCommitted ?? '-'}`);
  for (const file of scanOptions.imported?.files ?? []) {
    const content = await readFile(resolve(ctx.repoRoot, file)).catch(() => Buffer.from('(missing)'));
    hash.update(`\0${file}\0`).update(content);
  }
  return hash.digest('hex');
}

function bySecret(
  commits: readonly string[],
  cache: ReadonlyMap<string, readonly CachedSecret[]>,
  inTree: ReadonlySet<string>,
): HistorySecret[] {
  const secrets = new Map<string, HistorySecret>();
  for (const commit of commits) {
    for (const secret of cache.get(commit) ?? []) {
      // Still in the tree: the tree's finding says it once, and removing it there is the first step anyway.
      if (inTree.has(secret.fingerprint)) continue;
      const seen = secrets.get(secret.fingerprint);
      if (seen) seen.commits.push(commit);
      else secrets.set(secret.fingerprint, { ...secret, commits: [commit] });
    }
  }
  return [...secrets.values()];
}

/** One finding per secret, naming its commits and how to take it out of the branch before it is pushed. */
export function historyFinding(secret: HistorySecret, base: string | null): Finding {
  const messageOf = messageCommitOf(secret.path);
  if (messageOf) return messageFinding(secret, messageOf, base);
  const shown = secret.commits.map((commit) => commit.slice(0, 12));
  const which = shown.length === 1 ? `commit ${shown[0]}` : `commits ${shown.join(', ')}`;
  return makeFinding({
    validator: 'secrets',
    ruleId: secret.ruleId,
    severity: secret.severity,
    title: `${secret.title} in a commit since the base`,
    body: `Found ${secret.masked} (${secret.ruleId}) in ${which} (${secret.path}:${secret.line}). It is no longer in the working tree, but it is still in the branch's history, and pushing the branch pushes it. ${rewriteAdvice(shown[0]!, base)} If it ever left this machine, rotate it.`,
    path: secret.path,
    line: secret.line,
    column: secret.column,
    anchor: `${secret.fingerprint}:history`,
  });
}

/** A secret in a commit's message: the path names the commit, so it is one commit, reworded rather than edited. */
function messageFinding(secret: HistorySecret, commit: string, base: string | null): Finding {
  const short = commit.slice(0, 12);
  const rebase = base === null ? 'git rebase -i --root' : `git rebase -i ${base.slice(0, 12)}`;
  return makeFinding({
    validator: 'secrets',
    ruleId: secret.ruleId,
    severity: secret.severity,
    title: `${secret.title} in a commit message since the base`,
    body: `Found ${secret.masked} (${secret.ruleId}) in the message of commit ${short}, line ${secret.line}. Pushing the branch pushes the message. Reword it before pushing: \`${rebase}\`, mark ${short} \`reword\`, and take the secret out of the message. If it ever left this machine, rotate it.`,
    path: secret.path,
    line: secret.line,
    column: secret.column,
    anchor: `${secret.fingerprint}:history`,
  });
}

function rewriteAdvice(commit: string, base: string | null): string {
  if (base === null) {
    return `Rewrite the history before pushing: \`git rebase -i --root\`, mark ${commit} \`edit\` (or \`drop\`), take the secret out and \`git rebase --continue\`.`;
  }
  const short = base.slice(0, 12);
  return `Rewrite it out before pushing: \`git rebase -i ${short}\`, mark ${commit} \`edit\` (or \`drop\` if it holds nothing else), remove the secret, \`git commit --amend\` and \`git rebase --continue\`; or squash the whole change with \`git reset --soft ${short}\` and commit again without the secret.`;
}

/** `path:line secrets/rule Title: masked in commit abc` for the summary. */
export function formatHistoryLine(secret: HistorySecret): string {
  const messageOf = messageCommitOf(secret.path);
  if (messageOf)
    return `secrets/${secret.ruleId} ${secret.title}: ${secret.masked} in the message of commit ${messageOf.slice(0, 12)}, line ${secret.line}`;
  return `${secret.path}:${secret.line} secrets/${secret.ruleId} ${secret.title}: ${secret.masked} in commit ${secret.commits[0]!.slice(0, 12)}`;
}
