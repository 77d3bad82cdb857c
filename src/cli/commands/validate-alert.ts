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
  verify: z.boolean().default(false),
  repo: z
    .string()
    .regex(/^[^/\s]+\/[^/\s]+$/, '--repo: expected OWNER/REPO')
    .optional(),
  org: z
    .string()
    .regex(/^[^/\s]+$/, '--org: expected an organization login')
    .optional(),
  open: z.boolean().default(false),
  shard: z.string().optional(),
  concurrency: z.coerce.number().int().min(1).max(32).optional(),
  secretType: z.string().min(1).optional(),
  validity: z.enum(['active', 'inactive', 'unknown']).optional(),
});

export interface ValidateAlertCommandIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Live progress lines only on a terminal; plain lines elsewhere. */
  stderrIsTty?: boolean;
  columns?: number;
}

const processIo = (): ValidateAlertCommandIo => ({
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY === true,
  ...(process.stderr.columns !== undefined ? { columns: process.stderr.columns } : {}),
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
    .option(
      '--verify',
      "ask the secret's own provider (read-only HTTPS endpoint) whether it is live and give the answer to the analyses as evidence (also config secrets.verify; off when permissions.network is deny)",
    )
    .option('--repo <owner/repo>', 'with --open: sweep the open alerts of this repository')
    .option('--org <owner>', 'with --open: sweep the open alerts of every repository of this organization')
    .option('--open', 'decide every open alert of --repo or --org, resumably (one folder per alert, done.json last)')
    .option('--shard <i/n>', 'with --open: only the alerts of shard I of N (stable: by repository and alert number)')
    .option('--concurrency <n>', 'with --open: alerts decided at once, 1 to 32 (default 1)')
    .option(
      '--secret-type <type>',
      'with --open: only alerts of this secret type (the API filter, e.g. github_personal_access_token)',
    )
    .option('--validity <validity>', 'with --open: only alerts GitHub rates active, inactive or unknown')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate validate-alert octo-org/api 42
  $ tollgate validate-alert octo-org/api 42 --analyses 2 --agent claude,codex --json
  $ tollgate validate-alert --local 3f9c2a1b7d4e --show-usage
  $ tollgate validate-alert --org octo-org --open --shard 2/4 --out results/shard-2`,
    )
    .action(async (repo: string | undefined, alertId: string | undefined, rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(validateAlertFlags, { ...rawFlags, target: [repo, alertId].filter(Boolean) });
      const { withTokenFromFile } = await import('../../integrations/alerts/token-file.js');
      const commandIo = io();
      const tokenIo = { ...commandIo, env: withTokenFromFile(commandIo.env) };
      if (flags.open || flags.repo !== undefined || flags.org !== undefined || flags.shard !== undefined) {
        process.exitCode = await sweepCommand(flags, tokenIo);
        return;
      }
      process.exitCode = await singleAlertCommand(flags, tokenIo);
    });
}

/** One alert: `OWNER/REPO ALERT_ID` or `--local FINGERPRINT`. */
async function singleAlertCommand(flags: ValidateAlertFlags, commandIo: ValidateAlertCommandIo): Promise<number> {
  let target: import('../../integrations/alerts/validate-alert.js').AlertTarget;
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
    // Alert numbers start at 1; anything else would be sent to the API as a path segment.
    if (!/^[1-9]\d{0,9}$/.test(id))
      throw new TollgateError(
        'usage',
        `validate-alert: ALERT_ID: expected an alert number (1 or more), got ${JSON.stringify(id)}`,
      );
    target = { kind: 'github', owner, repo: name, alertId: id };
  }
  const { cwd, env, stdout, stderr } = commandIo;
  const { runValidateAlert } = await import('../../integrations/alerts/validate-alert.js');
  return runValidateAlert({
    target,
    cwd,
    env,
    json: flags.json,
    showUsage: flags.showUsage,
    verify: flags.verify,
    stdout,
    stderr,
    progress: commandIo.stderrIsTty ? 'live' : 'lines',
    ...(commandIo.columns !== undefined ? { columns: commandIo.columns } : {}),
    ...(flags.analyses !== undefined ? { analyses: flags.analyses } : {}),
    ...(flags.agent ? { agents: flags.agent } : {}),
    ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
    ...(flags.out ? { outDir: flags.out } : {}),
  });
}

type ValidateAlertFlags = z.output<typeof validateAlertFlags>;

/** `--repo/--org --open`: the resumable, shardable sweep over open alerts. */
async function sweepCommand(flags: ValidateAlertFlags, io: ValidateAlertCommandIo): Promise<number> {
  if (!flags.open) throw new TollgateError('usage', '--repo/--org/--shard sweep open alerts: add --open');
  if ((flags.repo === undefined) === (flags.org === undefined))
    throw new TollgateError('usage', '--open: give exactly one of --repo OWNER/REPO or --org OWNER');
  if (flags.target.length > 0 || flags.local !== undefined)
    throw new TollgateError('usage', '--open: decides every open alert; drop OWNER/REPO ALERT_ID and --local');
  const { parseShard } = await import('../../integrations/alerts/sweep/shard.js');
  const { runSweep } = await import('../../integrations/alerts/sweep/run-sweep.js');
  return runSweep({
    scope: flags.repo !== undefined ? { repo: flags.repo } : { org: flags.org ?? '' },
    filters: {
      ...(flags.secretType ? { secretType: flags.secretType } : {}),
      ...(flags.validity ? { validity: flags.validity } : {}),
    },
    shard: parseShard(flags.shard ?? '1/1'),
    concurrency: flags.concurrency ?? 1,
    out: flags.out ?? 'alert-sweep',
    cwd: io.cwd,
    env: io.env,
    json: flags.json,
    verify: flags.verify,
    stdout: io.stdout,
    stderr: io.stderr,
    ...(flags.analyses !== undefined ? { analyses: flags.analyses } : {}),
    ...(flags.agent ? { agents: flags.agent } : {}),
    ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
  });
}
