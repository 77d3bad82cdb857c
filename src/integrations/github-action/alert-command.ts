import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { TollgateError } from '../../core/errors.js';
import type { ActionEnvironment } from './action-inputs.js';
import { type ChildIo, runTollgateChild, withoutTokens } from './child-run.js';
import type { CommandOutcome } from './command-outcome.js';

const summaryShape = z
  .object({
    verdict: z.string(),
    finalReport: z.string().nullable(),
    htmlReport: z.string(),
    confidenceLabel: z.string().nullable(),
    keyFinding: z.string().nullable(),
  })
  .passthrough();

/** Exit codes of `validate-alert` that carry a verdict: 0 false positive, 1 true positive, 4 inconclusive. */
const VERDICT_CODES = [0, 1, 4];

/**
 * `command: validate-alert`: one secret-scanning alert of this repository (input `alert`; secret-scanning alerts
 * cannot trigger a workflow, so a workflow_dispatch input or a sweep names it) decided by competing agent analyses. The token reads the alert and clones the repository; the agents the
 * command starts never get it (validate-alert strips credentials from their environment).
 */
export async function runAlertCommand(input: ActionEnvironment, dir: string, io: ChildIo): Promise<CommandOutcome> {
  const { repository, alert } = alertTarget(input);
  if (!input.TOLLGATE_TOKEN)
    throw new TollgateError('usage', 'token: empty; validate-alert needs a token that can read secret-scanning alerts');
  const args = ['validate-alert', repository, String(alert), '--json', '--out', join(dir, 'alerts')];
  for (const agent of input.TOLLGATE_AGENTS) args.push('--agent', agent);
  if (input.TOLLGATE_ANALYSES) args.push('--analyses', input.TOLLGATE_ANALYSES);
  const env: NodeJS.ProcessEnv = {
    ...withoutTokens(io.env),
    GITHUB_TOKEN: input.TOLLGATE_TOKEN,
    GITHUB_API_URL: input.GITHUB_API_URL,
  };
  if (input.TOLLGATE_CONFIG_INPUT) env.TOLLGATE_CONFIG = input.TOLLGATE_CONFIG_INPUT;
  const { exitCode, stdout } = await runTollgateChild(io.self, args, {
    cwd: input.GITHUB_WORKSPACE,
    env,
    accept: VERDICT_CODES,
    stderr: io.stderr,
  });
  const parsed = summaryShape.safeParse(parseJson(stdout));
  if (!parsed.success) throw new TollgateError('io', 'validate-alert: its --json summary did not parse');
  const summary = parsed.data;
  const heading = `## tollgate validate-alert: ${repository} #${alert}: ${summary.verdict}${summary.confidenceLabel ? ` (${summary.confidenceLabel} confidence)` : ''}\n\n`;
  const body = summary.finalReport
    ? await readFile(summary.finalReport, 'utf8')
    : `${summary.keyFinding ?? 'No analysis produced a report.'}\n`;
  return {
    exitCode,
    verdict: summary.verdict,
    findings: summary.verdict === 'TRUE_POSITIVE' ? 1 : 0,
    reportPath: summary.finalReport ?? summary.htmlReport,
    markdown: heading + body,
    annotations: '',
  };
}

function alertTarget(input: ActionEnvironment): { repository: string; alert: number } {
  const repository = input.GITHUB_REPOSITORY;
  if (!/^[^/\s]+\/[^/\s]+$/.test(repository))
    throw new TollgateError('usage', 'GITHUB_REPOSITORY: expected OWNER/REPO (is this running on a GitHub runner?)');
  if (input.TOLLGATE_ALERT === undefined)
    throw new TollgateError('usage', 'alert: command validate-alert needs the alert number (e.g. 42)');
  return { repository, alert: input.TOLLGATE_ALERT };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
