import pLimit from 'p-limit';
import { loadConfig, parseConfigText } from '../../core/config/load.js';
import { lookUpRegistries } from '../../core/config/registries.js';
import { findRepoRoot } from '../../core/config/repo-root.js';
import { secretsOptionsSchema } from '../../secrets/options.js';
import { type AlertProgress, createAlertProgress } from './progress.js';
import { VERDICT_EXIT_CODES } from './types.js';
import { gatherAlert } from './validate/gather.js';
import { judgeReports } from './validate/judge-reports.js';
import { prepareSession } from './validate/prepare.js';
import { evaluateReports, runAnalyses } from './validate/run-analyses.js';
import { runChallenges } from './validate/run-challenges.js';
import type { ValidateAlertOptions } from './validate/types.js';
import { verifyAlertSecret } from './validate/verify-alert-secret.js';
import { writeOutcome } from './validate/write.js';

export type { AlertTarget, ValidateAlertOptions } from './validate/types.js';

/**
 * The config validate-alert decides with: the repository's around `cwd`, or the defaults outside one (an alert can
 * be validated from anywhere).
 */
export async function loadAlertConfig(cwd: string, env: NodeJS.ProcessEnv) {
  const repoRoot = await findRepoRoot(cwd, env).catch(() => null);
  const loaded = repoRoot ? await loadConfig({ repoRoot, cwd, env }) : null;
  const effective = (loaded ?? parseConfigText({ text: '', file: null, env: {}, registries: await lookUpRegistries() }))
    .config;
  return { repoRoot, loaded, effective };
}

/**
 * validate-alert end to end, stage by stage: gather the alert, prepare the session (output folder, agents, clone),
 * competing analyses and their evals, a challenge of each report, the judge, and the written outcome. Resolves to the
 * exit code of the winning verdict (0 false positive, 1 true positive, 4 inconclusive).
 */
export async function runValidateAlert(options: ValidateAlertOptions): Promise<number> {
  const { repoRoot, loaded, effective } = await loadAlertConfig(options.cwd, options.env);
  const token = options.env.GITHUB_TOKEN || options.env.GH_TOKEN || undefined;

  const progress = createAlertProgress({
    mode: options.progress ?? 'lines',
    write: options.stderr,
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
  });
  try {
    return await validateWith(options, { repoRoot, loaded, effective, token, progress });
  } finally {
    progress.close();
  }
}

async function validateWith(
  options: ValidateAlertOptions,
  context: Awaited<ReturnType<typeof loadAlertConfig>> & { token: string | undefined; progress: AlertProgress },
): Promise<number> {
  const { repoRoot, loaded, effective, token, progress } = context;
  const config = effective.alerts;
  const where =
    options.target.kind === 'github'
      ? `${options.target.owner}/${options.target.repo} alert ${options.target.alertId}`
      : `local finding ${options.target.fingerprint}`;
  progress.stage('gathering', where);
  const alert = await gatherAlert({ target: options.target, env: options.env, repoRoot, loaded, token });
  const secretsOptions = secretsOptionsSchema().parse(effective.secrets);
  if ((options.verify || secretsOptions.verify) && alert.secrets.alertSecret) {
    progress.stage('asking the provider whether the secret is live');
    alert.subject.verification = await verifyAlertSecret({
      secret: alert.secrets.alertSecret,
      cacheRoot: repoRoot ?? options.cwd,
      options: secretsOptions,
      network: effective.permissions.network,
      transport: options.verifyTransport,
    });
  }
  progress.stage('preparing', 'probing the agent CLIs and cloning the repository with its full history');
  const session = await prepareSession({ options, config, repoRoot, token, alert, progress });
  const limit = pLimit(session.analyses);
  progress.stage(
    'analyses',
    `${session.analyses} competing, on ${session.pool.healthy.map((adapter) => adapter.name).join(', ')}`,
  );
  const slots = await runAnalyses(session, limit);
  progress.stage('evals', 'deterministic checks of every report');
  const evals = await evaluateReports(session, slots);
  progress.stage('challenges', 'each report re-checked by another agent');
  const challenges = await runChallenges(session, slots, limit);
  progress.stage('judge');
  const judged = await judgeReports(session, slots, evals, challenges);
  const verdict = await writeOutcome(session, { slots, evals, challenges, judged });
  progress.stage('done', verdict);
  return VERDICT_EXIT_CODES[verdict];
}
