import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';
import { renderScanReport, type SecretScanReport } from '../../validators/secrets/report/index.js';
import type { ActionEnvironment } from './action-inputs.js';
import { type ChildIo, runPullRequestChild } from './child-run.js';
import type { CommandOutcome } from './command-outcome.js';

const scanReportShape = z
  .object({
    tool: z.literal('tollgate'),
    scope: z.string(),
    findings: z.array(z.object({ path: z.string(), line: z.number(), severity: z.string() }).passthrough()),
    skipped: z.array(z.object({ path: z.string(), reason: z.string(), detail: z.string() }).passthrough()),
    blocking: z.number().int().min(0),
  })
  .passthrough();

/**
 * `command: scan`: the secret scanner over every commit the pull request adds (`BASE..HEAD`, so a secret added and
 * removed again inside the PR is still caught: it is in the history that merging publishes), or over the whole work
 * tree when there is no base (a push or a schedule). A file that could not be scanned makes the verdict `incomplete`,
 * which fails like `failed`: a clean result means every byte was read.
 */
export async function runScanCommand(
  input: ActionEnvironment,
  base: string | undefined,
  dir: string,
  io: ChildIo,
): Promise<CommandOutcome> {
  if (input.TOLLGATE_ONLY.length > 0 || input.TOLLGATE_SKIP.length > 0)
    throw new TollgateError(
      'usage',
      'only/skip: pick validators of command "run"; command "scan" runs the secret scanner only',
    );
  const reportPath = join(dir, 'secrets.json');
  const scope = base ? ['--history', `${base}..HEAD`] : ['--all'];
  await runPullRequestChild(input, ['scan', ...scope, '--format', 'json', '--output', reportPath], io);
  const report = await readScanReport(reportPath);
  const unread = report.skipped.filter((skipped) => skipped.reason !== 'allowlisted');
  // Test fixtures (secrets.fixtures: report) are listed and annotated but do not fail the check.
  const verdict = report.blocking > 0 ? 'failed' : unread.length > 0 ? 'incomplete' : 'passed';
  return {
    exitCode: verdict === 'passed' ? 0 : 1,
    verdict,
    findings: report.findings.length,
    reportPath,
    markdown: renderScanReport(report, 'markdown'),
    annotations: renderScanReport(report, 'github'),
    ...(input.TOLLGATE_SARIF ? { sarif: renderScanReport(report, 'sarif') } : {}),
  };
}

async function readScanReport(path: string): Promise<SecretScanReport> {
  const parsed = scanReportShape.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) throw new TollgateError('io', `${path}: not a tollgate scan report`);
  return parsed.data as unknown as SecretScanReport;
}
