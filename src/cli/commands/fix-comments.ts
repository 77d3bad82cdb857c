import type { Command } from 'commander';
import { z } from 'zod';
import { durationSchema } from '../../core/config/duration.js';
import type { ReviewCommandIo } from '../../integrations/github/review-threads/command-glue.js';
import { parseFlags } from '../flags.js';
import { processIo } from '../io.js';

const fixCommentsFlags = z.object({
  payload: z.string().min(1).optional(),
  pr: z.coerce.number().int().min(1).optional(),
  repo: z.string().min(1).optional(),
  apply: z.boolean().default(false),
  applyReplies: z.boolean().default(false),
  applyResolutions: z.boolean().default(false),
  dryRun: z.boolean().default(false),
  commit: z.boolean().default(false),
  push: z.boolean().default(false),
  detached: z.boolean().default(false),
  unresolve: z.string().min(1).optional(),
  json: z.boolean().default(false),
  evidence: z.enum(['local', 'remote', 'either']).optional(),
  waitChecks: durationSchema.optional(),
});

function defaultIo(): ReviewCommandIo {
  return processIo();
}

export function registerFixComments(program: Command, io: () => ReviewCommandIo = defaultIo): void {
  program
    .command('fix-comments')
    .summary('reply to and resolve review threads, only where policy allows (dry run by default)')
    .description(
      'Reads a fix payload (schemas/review-comment-fix.schema.json) written after fixing, checking, committing and pushing, and plans a reply and a resolution per thread under the review policy (docs/review-threads.md). Without --apply* it only prints what would be posted and resolved. Each thread is re-read just before each mutation; needs_human threads are never replied to or resolved. Never edits code; with --commit it commits the files each valid item lists (one commit per group of threads sharing a file, the message naming them) and with --push pushes them to the PR head branch, refusing first on staged or unnamed changes, another branch, the default branch or a protected one. Never approves or merges. Exit code: 0 done or dry run, 1 blocked or failed items, 2 usage or config error.',
    )
    .option('--payload <file>', 'the fix payload (JSON)')
    .option('--pr <number>', 'pull request number; must match the payload prNumber and the last scan')
    .option('--repo <owner/name>', 'repository; default: the origin remote')
    .option('--apply', 'post the allowed replies and resolve the allowed threads')
    .option('--apply-replies', 'post the allowed replies only')
    .option('--apply-resolutions', 'resolve the allowed threads only')
    .option('--dry-run', 'only print the plan (the default without --apply*)')
    .option('--commit', "commit each valid item's files (one commit per thread group) before replying; needs --apply*")
    .option('--push', 'push the --commit commits to the PR head branch')
    .option('--detached', 'act without a stored scan: every thread is read from GitHub and must belong to --pr')
    .option('--unresolve <thread>', 'reopen a thread resolved by mistake (PRRT_… id)')
    .option('--evidence <source>', 'passing checks come from: local (tollgate run), remote (GitHub checks) or either')
    .option('--wait-checks <duration>', 'wait up to this long for running GitHub checks, e.g. 15m')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate fix-comments --payload .tollgate/review-comment-fix.json
  $ tollgate fix-comments --payload .tollgate/review-comment-fix.json --apply-replies
  $ tollgate fix-comments --payload .tollgate/review-comment-fix.json --apply --pr 123
  $ tollgate fix-comments --payload fix.json --apply --evidence remote --wait-checks 15m
  $ tollgate fix-comments --payload fix.json --apply-replies --commit --push
  $ tollgate fix-comments --unresolve PRRT_kwDOexample --pr 123`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(fixCommentsFlags, rawFlags);
      const { fixCommentsCommand } = await import('../../integrations/github/review-threads/command-glue.js');
      process.exitCode = await fixCommentsCommand(flags, io());
    });
}
