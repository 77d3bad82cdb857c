import type { RepoChangeSet } from '../change-set/types.js';
import type { ToolExecution } from '../pipeline/execute-tool.js';
import { isPassingStatus, result, type ToolStatus } from '../result.js';

/**
 * A changed file that could not be read (no permission, an embedded repository without a commit, a blob missing from
 * the object store) was examined by no validator, whatever each one says: every pass becomes `incomplete`, naming the
 * files, so nothing is stored as a pass of a change whose content nobody saw. So does a change whose commits since the
 * base git cannot all show (`historyGap`: a shallow clone cut above the base, borrowed objects).
 */
export function withUnexaminedFiles(changeSet: RepoChangeSet, executions: readonly ToolExecution[]): ToolExecution[] {
  const gap = changeSet.historyGap;
  const summary = gap ? `Not every commit since the base could be examined: ${gap}.` : unreadableSummary(changeSet);
  if (summary === null) return [...executions];
  // A missing history may hide any change at all: then "no changes" and "trivial" decided nothing either.
  const downgrade = gap ? isPassingStatus : (status: ToolStatus) => status === 'passed';
  return executions.map((execution) =>
    downgrade(execution.result.status)
      ? { ...execution, result: result('incomplete', summary, execution.result.findings, execution.result.details) }
      : execution,
  );
}

function unreadableSummary(changeSet: RepoChangeSet): string | null {
  const unreadable = changeSet.skipped.filter((file) => file.reason === 'unreadable').map((file) => file.path);
  if (unreadable.length === 0) return null;
  const list = unreadable.slice(0, 10).join(', ') + (unreadable.length > 10 ? ', …' : '');
  const one = unreadable.length === 1;
  const them = one ? 'it' : 'them';
  return `${unreadable.length} changed file${one ? '' : 's'} could not be read (${list}), so no validator examined ${them}; make ${them} readable, or list ${them} in the config's \`ignore\``;
}
