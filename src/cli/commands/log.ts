import type { Command } from 'commander';
import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';
import type { RunSummary } from '../../core/events/replay.js';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const logFlags = z.object({
  list: z.boolean().default(false),
  json: z.boolean().default(false),
  format: z.enum(['text', 'json', 'html']).optional(),
  limit: z.coerce.number().int().min(1).default(20),
  output: z.string().min(1).optional(),
});

export function registerLog(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('log')
    .summary('show what happened in a run, replayed from its event log')
    .description(
      'Replays a run from .tollgate/runs/<runId>/events.jsonl: one line per validator (status, duration, findings), each finding at path:line with its id (for `tollgate waive`), hook and permission decisions. Calls that started but never completed are flagged: the run was killed. Default: the latest run.',
    )
    .argument('[runId]', 'the run to show (default: the latest; `tollgate log --list` shows the ids)')
    .option('--list', 'list recent runs with their verdict and start time, newest first')
    .option('--limit <n>', 'with --list: how many runs to show (default 20)')
    .option('--json', 'print JSON instead of text (the replayed summary, or with --list the run list)')
    .option('--format <format>', 'text (default), json (as --json) or html (one self-contained page with a timeline)')
    .option('-o, --output <file>', 'write to this file (or device, FIFO, `-` for stdout) instead of stdout')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate log
  $ tollgate log --list
  $ tollgate log 20261123T105600Z-ab12cd --json
  $ tollgate log --format html --output run.html`,
    )
    .action(async (runId: string | undefined, rawFlags: unknown) => {
      const flags = parseFlags(logFlags, rawFlags);
      const format = flags.format ?? (flags.json ? 'json' : 'text');
      if (flags.list && format === 'html') {
        throw new TollgateError('usage', '--format html shows one run; drop --list, or use --list --json');
      }
      const { cwd, env, write: print } = io();
      const { checkOutputWritable, writeOutput } = await import('../../core/state/output-file.js');
      if (flags.output) await checkOutputWritable(flags.output, cwd);
      const write = (text: string) => writeOutput(flags.output ?? '-', text, { cwd, stdout: print });
      const { findRepoRoot } = await import('../../core/config/repo-root.js');
      const repoRoot = await findRepoRoot(cwd, env);
      const { listRuns, loadRun } = await import('../../core/events/run-history.js');
      const { renderRunList, renderRunLog } = await import('../../core/events/render-log.js');
      if (flags.list) {
        const runs = await listRuns(repoRoot, { limit: flags.limit });
        await write(format === 'json' ? `${JSON.stringify(runs, null, 2)}\n` : renderRunList(runs));
        return;
      }
      const { runId: id, summary } = await loadRun(repoRoot, runId);
      if (format === 'html') {
        await write(await runPage(repoRoot, id, summary));
      } else {
        await write(
          format === 'json' ? `${JSON.stringify({ ...summary, runId: id }, null, 2)}\n` : renderRunLog(id, summary),
        );
      }
    });
}

/**
 * The run's page as `run --format html` drew it, from the report the run stored; a run without one (an older
 * tollgate) gets the page its event log allows, saying what it lacks.
 */
async function runPage(repoRoot: string, runId: string, summary: RunSummary): Promise<string> {
  const { readStoredReport } = await import('../../core/run/stored-report.js');
  const { pageOfSummary, renderHtml, renderHtmlPage } = await import('../../report/html/index.js');
  const stored = await readStoredReport(repoRoot, runId);
  if (stored.kind === 'ok') return renderHtml(stored.report);
  const why =
    stored.kind === 'missing'
      ? 'This run has no stored report (an older tollgate recorded it, or its disk refused the report)'
      : `The stored report of this run is unreadable (${stored.problem})`;
  return renderHtmlPage(
    pageOfSummary(runId, summary, `${why}: this page is rebuilt from its event log, without outputs or changed files.`),
  );
}
