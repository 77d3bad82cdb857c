import type { Command } from 'commander';
import { z } from 'zod';
import { AGENT_NAMES } from '../../agents/index.js';
import { durationSchema } from '../../core/config/duration.js';
import { TollgateError } from '../../core/errors.js';
import { collectList, parseFlags } from '../flags.js';

const validateAlertFlags = z.object({
  target: z.array(z.string()).max(2),
  local: z.string().min(1).optional(),
  analyses: z.coerce.number().int().min(1).max(10).optional(),
  agent: z.array(z.enum(AGENT_NAMES)).optional(),
  timeout: durationSchema.optional(),
  out: z.string().min(1).optional(),
  json: z.boolean().default(false),
  showUsage: z.boolean().default(false),
});

export interface ValidateAlertCommandIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo = (): ValidateAlertCommandIo => ({
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
});

export function registerValidateAlert(program: Command, io: () => ValidateAlertCommandIo = processIo): void {
  program
    .command('validate-alert')
    .argument('[repo]', 'OWNER/REPO of a GitHub secret-scanning alert')
    .argument('[alertId]', 'the alert number')
    .summary('decide whether a secret-scanning alert is real: competing agent analyses, a challenge, a judge')
    .description(
      'Fetches a GitHub secret-scanning alert (GITHUB_TOKEN; GITHUB_API_URL for Enterprise) or, with --local, a finding of `tollgate scan`, clones the repository with full history, runs competing agent analyses, challenges each one, and has a judge pick the best report. Writes report-<i>.md, challenge-<i>.json, judge.json and final-report.md under <out>/<owner>/<repo>/<alert_id>/ (default out: .tollgate/alerts inside a repository, else ./analysis). Exit code: 0 false positive, 1 true positive, 4 inconclusive, 2 bad usage, 3 internal error.',
    )
    .option(
      '--local <fingerprint>',
      'validate the `tollgate scan` finding with this fingerprint in the current repository',
    )
    .option('--analyses <n>', 'competing analyses, 1 to 10 (default: config alerts.analyses, 3)')
    .option(
      '--agent <names>',
      `agent CLIs to use, in order (${AGENT_NAMES.join(', ')}); repeat or comma-separate`,
      collectList,
    )
    .option(
      '--timeout <duration>',
      'per-analysis time limit, e.g. "20m" (default: config alerts.timeouts.analysis, 30m)',
    )
    .option('--out <dir>', 'root of the output tree (default: .tollgate/alerts in a repository, else ./analysis)')
    .option('--json', 'print the summary as JSON')
    .option('--show-usage', 'write diagnostics.json per workspace and print a usage table')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate validate-alert octo-org/api 42
  $ tollgate validate-alert octo-org/api 42 --analyses 2 --agent claude,codex --json
  $ tollgate validate-alert --local 3f9c2a1b7d4e --show-usage`,
    )
    .action(async (repo: string | undefined, alertId: string | undefined, rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(validateAlertFlags, { ...rawFlags, target: [repo, alertId].filter(Boolean) });
      let target: import('../../alerts/validate-alert.js').AlertTarget;
      if (flags.local !== undefined) {
        if (flags.target.length > 0)
          throw new TollgateError('usage', '--local: give either --local FINGERPRINT or OWNER/REPO ALERT_ID, not both');
        target = { kind: 'local', fingerprint: flags.local };
      } else {
        const [ownerRepo, id] = flags.target;
        const [owner, name, ...rest] = (ownerRepo ?? '').split('/');
        if (!owner || !name || rest.length > 0 || !id) {
          throw new TollgateError(
            'usage',
            'validate-alert: expected OWNER/REPO ALERT_ID (e.g. octo-org/api 42) or --local FINGERPRINT',
          );
        }
        target = { kind: 'github', owner, repo: name, alertId: id };
      }
      const { cwd, env, stdout, stderr } = io();
      const { runValidateAlert } = await import('../../alerts/validate-alert.js');
      process.exitCode = await runValidateAlert({
        target,
        cwd,
        env,
        json: flags.json,
        showUsage: flags.showUsage,
        stdout,
        stderr,
        ...(flags.analyses !== undefined ? { analyses: flags.analyses } : {}),
        ...(flags.agent ? { agents: flags.agent } : {}),
        ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
        ...(flags.out ? { outDir: flags.out } : {}),
      });
    });
}
