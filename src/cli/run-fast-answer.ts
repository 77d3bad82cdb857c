import { traceFastPath } from '../core/run/fast-path-trace.js';
import { finishStamp } from '../core/run/tree-stamp.js';
import {
  answerUnchangedRun,
  prepareUnchangedRun,
  readUnchangedRun,
  type UnchangedRunAnswer,
} from '../core/run/unchanged-run.js';
import type { SavedRunStart } from '../core/run/unchanged-run-start.js';
import { renderJson } from '../report/json.js';
import { renderMarkdown } from '../report/markdown.js';
import { writeAnswer } from './answer-output.js';
import { installSignalHandlers } from './process-handlers.js';
import type { CliHandoff } from './run-handoff.js';
import { exitIfUnfinished } from './unfinished-guard.js';

/**
 * The repeat run's small bundle once its stamp's git is started (run-fast.ts; `started` is null when no saved report
 * was found, and no stamp taken; undefined after an error of its own): resolves to null once it answered (report on stdout, exit code 0), or to what the
 * full CLI needs instead (bin/tollgate.cjs then loads it): any tree it cannot vouch for, and any error of its own.
 * Until it resolves, an exit is an internal error (exit 3), never a silent 0; once it resolved to null, the report is
 * out and the process may exit at once.
 */
export async function answerRunFast(
  argv: readonly string[],
  startedAt: number,
  saved: SavedRunStart | null | undefined,
): Promise<CliHandoff | null> {
  const unfinished = exitIfUnfinished(argv);
  const removeSignalHandlers = installSignalHandlers();
  const handoff = (value: CliHandoff, why: string): CliHandoff => {
    traceFastPath(process.env, `handed to the full run: ${why}`);
    removeSignalHandlers();
    unfinished.settled();
    return value;
  };
  try {
    if (saved === undefined) throw new Error('the fast path could not start');
    // No saved report (none yet, or the last run failed): nothing to compare a stamp with.
    if (saved === null) return handoff({ run: { stamp: null } }, 'no saved result');
    // What the answer stands on is read, and the new run's record written, while git takes the stamp.
    const [stamp, pending] = await Promise.all([
      finishStamp(saved.started),
      readUnchangedRun(saved.repoRoot, process.env).then((read) => read && prepareUnchangedRun(read, startedAt)),
    ]);
    const answer = pending ? await answerUnchangedRun(stamp, pending) : null;
    if (!stamp) return handoff({}, 'not in a repository');
    if (!answer)
      return handoff(
        { run: { stamp } },
        pending ? 'the tree, refs, config or policy changed' : 'no saved result to repeat',
      );
    process.exitCode = 0;
    await writeAnswer(rendered(answer));
    traceFastPath(process.env, `answered from the saved result of run ${answer.repeats}`);
    unfinished.settled();
    return null;
  } catch {
    return handoff({}, 'an error of its own'); // the full path decides, and reports whatever went wrong
  }
}

function rendered(answer: UnchangedRunAnswer): string {
  const report = { ...answer.report, ...answer.located };
  return answer.format === 'json' ? renderJson(report) : renderMarkdown(report);
}
