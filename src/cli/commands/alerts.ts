import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const mergeFlags = z.object({
  dirs: z.array(z.string().min(1)).min(1, 'alerts merge: give at least one shard folder'),
  format: z.enum(['markdown', 'json', 'html']).default('markdown'),
  output: z.string().min(1).optional(),
  outDir: z.string().min(1).optional(),
});

export function registerAlerts(program: Command, io: () => CommandIo = processIo): void {
  const alerts = program
    .command('alerts')
    .summary('work with the results of alert sweeps (validate-alert --open)')
    .description(
      '`merge` joins the result folders of sweep shards (`tollgate validate-alert --org OWNER --open --shard I/N --out DIR`) into one summary.',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate alerts merge shard-1 shard-2 shard-3 shard-4
  $ tollgate alerts merge results/* --out-dir summary`,
    );

  alerts
    .command('merge')
    .argument('<dirs...>', 'result folders of sweep shards (each holds <owner>/<repo>/<number>/)')
    .summary('merge sweep shards into one summary: JSON, Markdown or HTML')
    .description(
      'Reads every alert folder of every shard: decided alerts (done.json and result.json), alerts that could not be decided (error.json) and alerts a killed shard left unfinished. Prints the summary (alert, repository, secret type, verdict, confidence, winning analysis, tokens and cost where the CLI reported them) with totals per verdict. An alert found in two shard folders is an error naming it. Exit code: 0 every alert decided, 1 some not decided, 2 bad usage or a duplicate.',
    )
    .option('--format <format>', 'markdown, json or html (default: markdown)')
    .option('-o, --output <file>', 'write the summary to this file instead of stdout')
    .option('--out-dir <dir>', 'also write summary.json, summary.md and summary.html into this folder')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate alerts merge shard-1 shard-2
  $ tollgate alerts merge results/* --format html --output sweep.html
  $ tollgate alerts merge results/* --out-dir summary`,
    )
    .action(async (dirs: string[], rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(mergeFlags, { ...rawFlags, dirs });
      const { cwd, write } = io();
      const [{ mergeSweeps }, { renderMerged }, { writeFileAtomic }, { checkOutputWritable, writeOutput }] =
        await Promise.all([
          import('../../integrations/alerts/sweep/merge.js'),
          import('../../integrations/alerts/sweep/merge-render.js'),
          import('../../core/state/atomic-write.js'),
          import('../../core/state/output-file.js'),
        ]);
      if (flags.output) await checkOutputWritable(flags.output, cwd);
      const merged = await mergeSweeps(flags.dirs, cwd);
      if (flags.outDir) {
        const dir = resolve(cwd, flags.outDir);
        await mkdir(dir, { recursive: true });
        for (const [name, format] of [
          ['summary.json', 'json'],
          ['summary.md', 'markdown'],
          ['summary.html', 'html'],
        ] as const)
          await writeFileAtomic(join(dir, name), renderMerged(merged, format));
      }
      const text = renderMerged(merged, flags.format);
      await writeOutput(flags.output ?? '-', text, { cwd, stdout: write });
      process.exitCode = merged.errors.length + merged.unfinished.length > 0 ? 1 : 0;
    });
}
