import type { TreeFingerprint } from '../change-set/index.js';
import { isUnchanged, type RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import type { ToolExecution } from '../pipeline/execute-tool.js';
import { isPassingStatus, result } from '../result.js';
import { changeSetForRun, fingerprintForRun } from './change-set-for-run.js';

/**
 * The tree a run validated must be the tree it stores a result for. The change set is fingerprinted again once every
 * validator is done; if anything changed meanwhile (a check that deletes or writes files, an editor saving), no
 * validator's pass stands: each becomes `incomplete`, naming what changed, and the caller stores nothing as a pass.
 */
export async function recheckTree(
  repoRoot: string,
  config: TollgateConfig,
  before: RepoChangeSet,
  executions: readonly ToolExecution[],
  base?: string,
  started?: Promise<TreeFingerprint>,
): Promise<{ executions: ToolExecution[]; changed: string[] | null }> {
  // Nothing looked at the tree (every answer came from an earlier run of it): nothing to vouch for, and the unchanged
  // tree's run and stop hook stay as fast as they are.
  if (isUnchanged(before) || executions.every((execution) => execution.result.status.startsWith('skipped_'))) {
    return { executions: [...executions], changed: null };
  }
  // The fingerprint alone says whether anything changed; the whole change set (its patch, its files) is built only
  // when something did, to name what.
  const now = await (started ?? fingerprintForRun(repoRoot, config, base, before));
  if (now.fingerprint === before.fingerprint && now.head === before.head) {
    return { executions: [...executions], changed: null };
  }
  const after = await changeSetForRun(repoRoot, config, base);
  const changed = changedPaths(before, after);
  const list =
    changed.length > 0
      ? changed.slice(0, 10).join(', ') + (changed.length > 10 ? ', …' : '')
      : after.head !== before.head
        ? 'HEAD moved'
        : 'file contents';
  const summary = `the files changed while tollgate ran (${list}), so this result is not of the tree as it is now; run again once nothing else writes to the tree (if a check writes these files, list them in .gitignore or the config's \`ignore\`)`;
  return {
    changed,
    executions: executions.map((execution) =>
      isPassingStatus(execution.result.status)
        ? { ...execution, result: result('incomplete', summary, execution.result.findings, execution.result.details) }
        : execution,
    ),
  };
}

/**
 * The fingerprint `recheckTree` compares, begun before the last validators end: only once every validator has settled
 * or reads nothing more of the work tree than the snapshot's own bytes (`ToolContext.doneWithWorkTree`), so the tree
 * it sees is the tree as every validator that looked at it left it. Its git then runs beside the secret scan instead
 * of after it. A failure is reported where `recheckTree` awaits it (and is not unhandled when nothing does).
 */
export function startRecheck(
  repoRoot: string,
  config: TollgateConfig,
  before: RepoChangeSet,
  base?: string,
): Promise<TreeFingerprint> {
  const started = fingerprintForRun(repoRoot, config, base, before);
  started.catch(() => undefined);
  return started;
}

/** Paths that appeared, vanished or changed size between the two change sets (content edits of equal size show too
 * when nothing else is found, as the fingerprint says something changed). */
function changedPaths(before: RepoChangeSet, after: RepoChangeSet): string[] {
  const sizes = new Map(before.files.map((file) => [file.path, `${file.status}:${file.size}`]));
  const changed = new Set<string>();
  for (const file of after.files) {
    if (sizes.get(file.path) !== `${file.status}:${file.size}`) changed.add(file.path);
    sizes.delete(file.path);
  }
  for (const path of sizes.keys()) changed.add(path);
  return [...changed].sort();
}
