import { stampOf } from '../core/run/tree-stamp.js';
import {
  answerUnchangedRun,
  findUnchangedRun,
  prepareUnchangedRun,
  readUnchangedRun,
  type UnchangedRunAnswer,
} from '../core/run/unchanged-run.js';
import { TOLLGATE_VERSION } from '../core/version.js';
import { renderJson } from '../report/json.js';
import { renderMarkdown } from '../report/markdown.js';
import { installSignalHandlers, installStreamErrorHandlers } from './process-handlers.js';
import type { CliHandoff } from './run-handoff.js';

/**
 * The entry of the no-change run's own small bundle (dist/bundle/cli/run-fast.cjs). Agents run a plain `tollgate run`
 * again and again; when nothing changed since a run that passed, the answer needs a stamp of the tree and a few small
 * modules, not the whole CLI (src/core/run/unchanged-run.ts). Resolves to null once it answered (report on stdout,
 * exit code 0), or to what the full CLI needs instead (bin/tollgate.cjs then loads it): any other command line, any
 * tree it cannot vouch for, and any error of its own.
 */
export async function runFast(argv: readonly string[]): Promise<CliHandoff | null> {
  if (argv.length !== 3 || argv[2] !== 'run') return {};
  const startedAt = Date.now();
  const removeSignalHandlers = installSignalHandlers();
  try {
    // No saved report (none yet, or the last run found changes): nothing to compare a stamp with.
    const repoRoot = findUnchangedRun(process.cwd());
    if (repoRoot === null) return handoff(removeSignalHandlers, { run: { stamp: null } });
    // What the answer stands on is read, and the new run's record written, while git takes the stamp.
    const [stamp, pending] = await Promise.all([
      stampOf({ cwd: process.cwd(), env: process.env, version: TOLLGATE_VERSION, purpose: 'run', refs: true }),
      readUnchangedRun(repoRoot, process.env).then((saved) => saved && prepareUnchangedRun(saved, startedAt)),
    ]);
    const answer = pending ? await answerUnchangedRun(stamp, pending) : null;
    if (!stamp) return handoff(removeSignalHandlers, {});
    if (!answer) return handoff(removeSignalHandlers, { run: { stamp } });
    installStreamErrorHandlers();
    process.stdout.write(rendered(answer));
    process.exitCode = 0;
    return null;
  } catch {
    return handoff(removeSignalHandlers, {}); // the full path decides, and reports whatever went wrong
  }
}

function handoff(removeSignalHandlers: () => void, value: CliHandoff): CliHandoff {
  removeSignalHandlers();
  return value;
}

function rendered(answer: UnchangedRunAnswer): string {
  const report = { ...answer.report, ...answer.located };
  return answer.format === 'json' ? renderJson(report) : renderMarkdown(report);
}
