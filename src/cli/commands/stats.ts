import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const statsFlags = z.object({
  limit: z.coerce.number().int().min(1).default(50),
  json: z.boolean().default(false),
});

/** `tollgate stats`: the local telemetry, summarised. */
export function registerStats(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('stats')
    .summary('summarise local validation telemetry over recent runs')
    .description(
      'Reads .tollgate/runs/*/telemetry.jsonl (written by every run and MCP call; local only, never sent anywhere) and prints, per validator: calls, successes, timeouts, median and p95 duration, findings, how often the agent declared the change trivial and how often it was wrong, the time those declarations could have saved, why calls were skipped, calls refused for invalid input, runs a signal interrupted, and which reviewer CLIs (version, model) and CodeQL versions (overlay database or not) ran.',
    )
    .option('--limit <n>', 'how many recent runs to read (default 50)')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate stats
  $ tollgate stats --limit 10 --json`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(statsFlags, rawFlags);
      const { cwd, env, write } = io();
      const { findRepoRoot } = await import('../../core/config/repo-root.js');
      const { readTelemetry, renderStats, summarizeTelemetry } = await import('../../core/telemetry/index.js');
      const repoRoot = await findRepoRoot(cwd, env);
      const read = await readTelemetry(repoRoot, { limit: flags.limit });
      const stats = summarizeTelemetry(read.records, read.runs, read.unreadableLines);
      write(flags.json ? `${JSON.stringify(stats, null, 2)}\n` : renderStats(stats));
    });
}
