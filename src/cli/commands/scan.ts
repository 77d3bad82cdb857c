import { resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { FIXTURE_MODES } from '../../secrets/fixtures.js';
import { MAX_SCAN_THREADS, scanThreadsFlag } from '../../secrets/options.js';
import { SCAN_FORMATS } from '../../validators/secrets/report/scan-formats.js';
import { parseFlags } from '../flags.js';
import { hookGroup } from './hook-group.js';

const scanFlags = z.object({
  paths: z.array(z.string().min(1)).default([]),
  staged: z.boolean().default(false),
  all: z.boolean().default(false),
  history: z.string().min(1).optional(),
  format: z.enum(SCAN_FORMATS).default('markdown'),
  output: z.string().min(1).optional(),
  baselineWrite: z.boolean().default(false),
  baselineAudit: z.boolean().default(false),
  baselinePrune: z.boolean().default(false),
  reportAllowed: z.boolean().default(false),
  verify: z.boolean().default(false),
  fixtures: z.enum(FIXTURE_MODES).optional(),
  maxThreads: scanThreadsFlag.optional(),
});

export function registerScan(program: Command): void {
  program
    .command('scan')
    .argument('[paths...]', 'files or folders to scan (folders honour .gitignore); default: the current folder')
    .summary('scan files, the index, the work tree or history for secrets')
    .description(
      'Finds credentials with the same rules as the `secrets` validator and prints them masked (at most 4 characters). Exit code: 0 no secrets (or only test fixtures, which do not block by default), 1 secrets found, 2 bad usage or config.',
    )
    .option('--staged', 'scan the lines the staged changes add, as they are in the index (what a commit would record)')
    .option('--all', 'scan every tracked and untracked-not-ignored file of the work tree')
    .option('--history <range>', 'scan the lines each commit in a revision range added, e.g. "origin/main..HEAD"')
    .option(
      '--format <format>',
      'report format: markdown, json, sarif or github (workflow-command annotations) (default: markdown)',
    )
    .option('-o, --output <file>', 'write the report to this file instead of stdout')
    .option(
      '--report-allowed',
      'also list the findings that inline allows and the baseline cleared, and by what, and the values a provider rule recognised but rejected (wrong checksum, placeholder, documentation host like example.net), masked, with the reason',
    )
    .option(
      '--verify',
      "ask each credential's own provider (read-only HTTPS endpoint) whether it is live; live ones become critical and come first (also config secrets.verify; off when permissions.network is deny)",
    )
    .option(
      '--fixtures <mode>',
      'findings classified as test fixtures (test/docs path, made-up value): report (shown, not blocking), block, or ignore (default: config secrets.fixtures, else report)',
    )
    .option(
      '--max-threads <n>',
      `scan files on disk with at most n threads, 1 to ${MAX_SCAN_THREADS} (1: no worker threads); default: config secrets.maxThreads, else one per core, and a worker only per 128 MB to scan`,
    )
    .option(
      '--baseline-write',
      'record every current finding in the baseline (config secrets.baseline) so it stops blocking',
    )
    .option(
      '--baseline-audit',
      'list baseline entries that no longer match a finding in the work tree (exit 1 if any); reads the whole work tree',
    )
    .option('--baseline-prune', 'with --baseline-audit: remove those entries from the baseline file')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate scan src config/.env
  $ tollgate scan --staged
  $ tollgate scan --all --format sarif --output secrets.sarif
  $ tollgate scan --history origin/main..HEAD --format json
  $ tollgate scan --all --baseline-write
  $ tollgate scan --all --report-allowed
  $ tollgate scan --all --verify
  $ tollgate scan --all --fixtures block
  $ tollgate scan --all --max-threads 2
  $ tollgate scan --baseline-audit --baseline-prune`,
    )
    .action(async (paths: string[], rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(scanFlags, { ...rawFlags, paths });
      const { runScanCommand } = await import('../../validators/secrets/scan-command.js');
      process.exitCode = await runScanCommand(flags);
    });
}

/**
 * `tollgate hook pre-commit` (what the git hook runs) and `tollgate hook install pre-commit`, on the shared `hook`
 * group.
 */
export function registerHookPreCommit(program: Command): void {
  const group = hookGroup(program);
  group
    .command('pre-commit')
    .summary('scan the staged changes for secrets; exit 1 to block the commit')
    .description(
      'Scans what the commit would record (the index, not the working tree), prints masked findings and exits 1 to block. It counts consecutive blocked attempts on the same findings; with secrets.redactAfterAttempts set and permissions.writeFiles "allow", it then replaces each secret with <REDACTED:rule-id> in the staged blob and the working file, keeps the originals (mode 0600) under .git/tollgate/redacted/, and lets the commit proceed.',
    )
    .addHelpText(
      'after',
      `
Example:
  $ tollgate hook pre-commit`,
    )
    .action(async () => {
      const { runPreCommit } = await import('../../validators/secrets/pre-commit/run-pre-commit.js');
      const outcome = await runPreCommit({ cwd: process.cwd(), env: process.env });
      if (outcome.message) process.stderr.write(`${outcome.message}\n`);
      process.exitCode = outcome.exitCode;
    });
  group
    .command('install')
    .argument('<hook>', 'which git hook: pre-commit')
    .summary('install a git hook that runs tollgate (pre-commit: secret scanning)')
    .description(
      "Writes .git/hooks/pre-commit (or core.hooksPath's) to run `tollgate hook pre-commit`. With husky, lefthook or the pre-commit framework, or a hook someone else wrote, it changes nothing and prints the line to add.",
    )
    .addHelpText(
      'after',
      `
Example:
  $ tollgate hook install pre-commit`,
    )
    .action(async (hook: string) => {
      const { hook: name } = parseFlags(hookInstallArgs, { hook });
      const [{ installPreCommitHook }, { findRepoRoot }] = await Promise.all([
        import('../../validators/secrets/pre-commit/install-hook.js'),
        import('../../core/config/repo-root.js'),
      ]);
      // The hook calls back the very tollgate that wrote it (this script, by absolute path).
      const self = process.argv[1] ? resolve(process.argv[1]) : null;
      const outcome = await installPreCommitHook(await findRepoRoot(process.cwd()), process.env, self);
      if (outcome.status === 'manual') {
        process.stdout.write(`tollgate: ${name} hook not written: ${outcome.reason}\n  ${outcome.line}\n`);
      } else process.stdout.write(`tollgate: ${outcome.status} ${outcome.path}\n`);
    });
}

const hookInstallArgs = z.object({ hook: z.enum(['pre-commit']) });
