import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';
import { blockingFindings, type RunReport } from '../../core/run/run-report.js';
import { renderReport } from '../../report/index.js';
import type { ActionEnvironment } from './action-inputs.js';
import { type ChildIo, runPullRequestChild } from './child-run.js';
import type { CommandOutcome } from './command-outcome.js';

const reportShape = z
  .object({ verdict: z.string(), tools: z.array(z.object({ findings: z.array(z.unknown()) }).passthrough()) })
  .passthrough();

/** `command: run`: the whole gate over the PR's change set, once, as JSON; every other output is rendered from it. */
export async function runGateCommand(
  input: ActionEnvironment,
  base: string | undefined,
  dir: string,
  io: ChildIo,
): Promise<CommandOutcome> {
  const reportPath = join(dir, 'report.json');
  const args = ['run', '--format', 'json', '--output', reportPath];
  if (base) args.push('--base', base);
  for (const name of input.TOLLGATE_ONLY) args.push('--only', name);
  for (const name of input.TOLLGATE_SKIP) args.push('--skip', name);
  const { exitCode } = await runPullRequestChild(input, args, io);
  const report = await readReport(reportPath);
  return {
    exitCode,
    verdict: report.verdict,
    findings: report.tools.reduce((sum, tool) => sum + blockingFindings(tool).length, 0),
    reportPath,
    markdown: await renderReport(report, 'markdown'),
    annotations: await renderReport(report, 'github'),
    ...(input.TOLLGATE_SARIF ? { sarif: await renderReport(report, 'sarif') } : {}),
  };
}

async function readReport(path: string): Promise<RunReport> {
  const parsed = reportShape.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) throw new TollgateError('io', `${path}: not a tollgate run report`);
  return parsed.data as unknown as RunReport;
}
