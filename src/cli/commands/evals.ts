import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';

const evalsFlags = z.object({
  report: z.string().min(1),
  repo: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'expected OWNER/REPO')
    .optional(),
  alert: z.string().min(1).optional(),
  workspace: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

export function registerEvals(program: Command): void {
  program
    .command('evals')
    .argument('<report>', 'an analysis report (report.md, report-<i>.md or final-report.md)')
    .summary('run the deterministic checks of validate-alert on one analysis report')
    .description(
      'Checks structure (required sections, summary fields), metadata (repository and alert id, with --repo/--alert), verdict coherence (verdict, confidence label, risk) and evidence (cited scripts/ and logs/ files exist in the workspace). Each check prints its id, pass/fail and the reason. Exit code: 0 no error check failed, 1 some did, 2 bad usage.',
    )
    .option('--repo <owner/repo>', 'the repository the report must name')
    .option('--alert <id>', 'the alert id the report must name')
    .option('--workspace <dir>', "the analysis workspace (default: the report's folder when it has scripts/ or logs/)")
    .option('--json', 'print the checks as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate evals analysis/octo-org/api/42/report-0.md --repo octo-org/api --alert 42
  $ tollgate evals .tollgate/alerts/local/api/3f9c2a1b7d4e/final-report.md --json`,
    )
    .action(async (report: string, rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(evalsFlags, { ...rawFlags, report });
      const { runEvalsCommand } = await import('../../integrations/alerts/evals-command.js');
      process.exitCode = await runEvalsCommand({
        report: flags.report,
        json: flags.json,
        cwd: process.cwd(),
        stdout: (text) => void process.stdout.write(text),
        ...(flags.repo ? { repository: flags.repo } : {}),
        ...(flags.alert ? { alertId: flags.alert } : {}),
        ...(flags.workspace ? { workspace: flags.workspace } : {}),
      });
    });
}
