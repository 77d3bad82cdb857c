import { traceFastPath } from '../core/run/fast-path-trace.js';
import { stampOf } from '../core/run/tree-stamp.js';
import {
  answerUnchangedRun,
  findUnchangedRun,
  plainRunStampOptions,
  prepareUnchangedRun,
  readUnchangedRun,
  type UnchangedRunAnswer,
} from '../core/run/unchanged-run.js';
import { renderJson } from '../report/json.js';
import { renderMarkdown } from '../report/markdown.js';
import { installSignalHandlers, installStreamErrorHandlers } from './process-handlers.js';
import type { CliHandoff } from './run-handoff.js';
import { exitIfUnfinished } from './unfinished-guard.js';

/**
 * The entry of the repeat run's own small bundle (dist/bundle/cli/run-fast.cjs). Agents run a plain `tollgate run`
 * again and again; when nothing changed since a run that passed by repeating what was already validated (with or
 * without changes since the base), the answer needs a stamp of the tree and a few small modules, not the whole CLI
 * (src/core/run/unchanged-run.ts). Resolves to null once it answered (report on stdout, exit code 0), or to what the
 * full CLI needs instead (bin/tollgate.cjs then loads it): any other command line, any tree it cannot vouch for, and
 * any error of its own. Until it resolves, an exit is an internal error (exit 3), never a silent 0.
 */
export async function runFast(argv: readonly string[]): Promise<CliHandoff | null> {
  if (argv.length !== 3 || argv[2] !== 'run') return {};
  const startedAt = Date.now();
  const unfinished = exitIfUnfinished(argv);
  const removeSignalHandlers = installSignalHandlers();
  const handoff = (value: CliHandoff, why: string): CliHandoff => {
    traceFastPath(process.env, `handed to the full run: ${why}`);
    removeSignalHandlers();
    unfinished.settled();
    return value;
  };
  try {
    // No saved report (none yet, or the last run failed): nothing to compare a stamp with.
    const repoRoot = findUnchangedRun(process.cwd());
    if (repoRoot === null) return handoff({ run: { stamp: null } }, 'no saved result');
    // What the answer stands on is read, and the new run's record written, while git takes the stamp.
    const [stamp, pending] = await Promise.all([
      stampOf(plainRunStampOptions(process.cwd(), process.env)),
      readUnchangedRun(repoRoot, process.env).then((saved) => saved && prepareUnchangedRun(saved, startedAt)),
    ]);
    const answer = pending ? await answerUnchangedRun(stamp, pending) : null;
    if (!stamp) return handoff({}, 'not in a repository');
    if (!answer)
      return handoff(
        { run: { stamp } },
        pending ? 'the tree, refs, config or policy changed' : 'no saved result to repeat',
      );
    installStreamErrorHandlers();
    process.stdout.write(rendered(answer));
    traceFastPath(process.env, `answered from the saved result of run ${answer.repeats}`);
    unfinished.settled();
    process.exitCode = 0;
    return null;
  } catch {
    return handoff({}, 'an error of its own'); // the full path decides, and reports whatever went wrong
  }
}

function rendered(answer: UnchangedRunAnswer): string {
  const report = { ...answer.report, ...answer.located };
  return answer.format === 'json' ? renderJson(report) : renderMarkdown(report);
}
