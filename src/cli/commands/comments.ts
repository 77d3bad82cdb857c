import type { Command } from 'commander';
import { z } from 'zod';
import type { ReviewCommandIo } from '../../integrations/github/review-threads/command-glue.js';
import { parseFlags } from '../flags.js';
import { processIo } from '../io.js';

const positiveInt = z.coerce.number().int().min(1);

const commentsFlags = z.object({
  pr: positiveInt.optional(),
  repo: z.string().min(1).optional(),
  all: z.boolean().default(false),
  unresolved: z.boolean().default(false),
  includeOutdated: z.boolean().default(false),
  author: z.array(z.string().min(1)).default([]),
  path: z.array(z.string().min(1)).default([]),
  maxThreads: positiveInt.max(1000).optional(),
  json: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  triagePayload: z.string().min(1).optional(),
});

const repeat = (value: string, previous: string[] = []) => [...previous, value];

function defaultIo(): ReviewCommandIo {
  return processIo();
}

export function registerComments(program: Command, io: () => ReviewCommandIo = defaultIo): void {
  program
    .command('comments')
    .summary("list and triage a pull request's review threads (read-only)")
    .description(
      'Reads the inline review threads of a pull request through GitHub GraphQL (gh, else GH_TOKEN/GITHUB_TOKEN) and prints a summary with redacted previews; never replies, resolves or changes anything on GitHub. Stores the scan in .tollgate/review-threads/state.json for `tollgate fix-comments`. Exit code: 0 listed, 1 blocked (incomplete scan or a thread needs a human), 2 usage or config error.',
    )
    .option(
      '--pr <number>',
      'pull request number; default: the last scanned PR, else the open PR of the current branch',
    )
    .option('--repo <owner/name>', 'repository; default: the origin remote')
    .option('--all', 'list resolved threads too')
    .option('--unresolved', 'list only unresolved threads (the default)')
    .option('--include-outdated', 'list outdated threads too')
    .option('--author <login>', 'only threads with a comment by this login, e.g. coderabbitai (repeatable)', repeat)
    .option('--path <glob>', 'only threads on paths matching this glob or folder, e.g. "src/**" (repeatable)', repeat)
    .option('--max-threads <n>', 'read at most this many threads, 1 to 1000 (default: reviewComments.maxThreads)')
    .option('--json', 'print JSON (comment bodies redacted)')
    .option('--dry-run', 'read GitHub but write no state')
    .option('--triage-payload <file>', 'check a triage (schemas/review-comment-triage.schema.json) against the threads')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate comments
  $ tollgate comments --pr 123 --author coderabbitai --path "src/**"
  $ tollgate comments --all --include-outdated --json
  $ tollgate comments --triage-payload .tollgate/review-comment-triage.json`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(commentsFlags, rawFlags);
      const { commentsCommand } = await import('../../integrations/github/review-threads/command-glue.js');
      process.exitCode = await commentsCommand(
        {
          pr: flags.pr,
          repo: flags.repo,
          all: flags.all && !flags.unresolved,
          includeOutdated: flags.includeOutdated,
          authors: flags.author,
          paths: flags.path,
          maxThreads: flags.maxThreads,
          json: flags.json,
          dryRun: flags.dryRun,
          triagePayload: flags.triagePayload,
        },
        io(),
      );
    });
}
