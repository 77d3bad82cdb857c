import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { markAdapterUnhealthy } from '../../../agents/health.js';
import { agentNamesOf, type RegisteredAdapter } from '../../../agents/index.js';
import { buildReviewerPool } from '../../../agents/reviewer-pool.js';
import type { AgentSettings } from '../../../agents/types.js';
import type { TollgateConfig } from '../../../core/config/schema.js';
import { TollgateError } from '../../../core/errors.js';
import { packageFile } from '../../../core/package-files.js';
import { ensureTollgateDir } from '../../../core/state/tollgate-dir.js';
import { type AgentDefinition, type AgentRole, loadAgentDefinitions, modelFor } from '../agent-definitions.js';
import { cloneFull, gitAuthEnv } from '../clone.js';
import { createRedactor } from '../mask.js';
import { AlertWriter } from '../output-writer.js';
import type { AlertProgress } from '../progress.js';
import { discoverSkills } from '../skills.js';
import type { GatheredAlert } from './gather.js';
import type { AlertSession, ValidateAlertOptions } from './types.js';

/** Variables that hold tollgate's GitHub credentials: agents never inherit them. */
const CREDENTIAL_ENV = [
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENTERPRISE_TOKEN',
  'GITHUB_TOKEN_FILE',
];

export interface PrepareOptions {
  options: ValidateAlertOptions;
  config: TollgateConfig['alerts'];
  repoRoot: string | null;
  token: string | undefined;
  alert: GatheredAlert;
  progress: AlertProgress;
}

/**
 * Stage 2: a fresh output folder (a stale final-report.md never survives a failed run), the healthy agents in
 * preference order, one full-history clone that every analysis copies, and the skills and report template.
 */
export async function prepareSession(input: PrepareOptions): Promise<AlertSession> {
  const { options, config, repoRoot, alert } = input;
  const redact = createRedactor(alert.secrets);
  const outRoot = options.outDir
    ? resolve(options.cwd, options.outDir)
    : repoRoot
      ? join(ensureTollgateDir(repoRoot).root, 'alerts')
      : resolve(options.cwd, 'analysis');
  const alertDir = join(outRoot, alert.subject.owner, alert.subject.repo, alert.subject.alertId);
  const writer = new AlertWriter(alertDir, redact);
  await writer.remove(alertDir);
  await mkdir(alertDir, { recursive: true, mode: 0o700 });

  // A definition that cannot be used is a usage error now, before any clone or agent call.
  const definitions = await loadAgentDefinitions(repoRoot);
  const agents = await chooseAgents(input, definitions);

  // One full-history clone, then a fast copy per analysis (or per-analysis clones if it failed).
  const gitOptions = { env: gitAuthEnv(options.env, input.token), redact, timeoutMs: 600_000 };
  const commits = alert.subject.locations.flatMap((location) => (location.commitSha ? [location.commitSha] : []));
  const sharedRepo = join(alertDir, '_shared_repo');
  const shared = await cloneFull(alert.cloneUrl, sharedRepo, { ...gitOptions, commits });
  const notes: string[] = [];
  if (!shared.ok) notes.push(`the shared clone failed (${shared.message}); each analysis cloned for itself`);

  const [analysis, challenger, judge] = await Promise.all([
    discoverSkills('analysis', repoRoot),
    discoverSkills('challenger', repoRoot),
    discoverSkills('judge', repoRoot),
  ]);
  // A skill that cannot be read is left out, never silently: the summary and stderr name it.
  for (const warning of [...analysis.warnings, ...challenger.warnings, ...judge.warnings]) {
    notes.push(warning);
    options.stderr(`tollgate: warning: ${warning}\n`);
  }
  return {
    options,
    progress: input.progress,
    config,
    repoRoot,
    analyses: options.analyses ?? config.analyses,
    subject: alert.subject,
    secrets: alert.secrets,
    redact,
    alertDir,
    writer,
    ...agents,
    cloneUrl: alert.cloneUrl,
    gitOptions,
    commits,
    sharedRepo: shared.ok ? sharedRepo : null,
    skills: { analysis: analysis.skills, challenger: challenger.skills, judge: judge.skills },
    reportTemplate: await readFile(packageFile('skills/analysis/_report-template.md'), 'utf8'),
    notes,
  };
}

/** The healthy agent CLIs in preference order, their settings, and an environment without tollgate's credentials. */
async function chooseAgents(
  input: PrepareOptions,
  definitions: Record<AgentRole, AgentDefinition>,
): Promise<Pick<AlertSession, 'pool' | 'settingsOf' | 'definitions' | 'agentEnv' | 'onUsageLimit'>> {
  const { options, config, repoRoot } = input;
  const preference = options.agents ?? agentNamesOf(config.agents);
  const pool = await buildReviewerPool({
    preference,
    wanted: preference.length,
    repoRoot: repoRoot ?? options.cwd,
    env: options.env,
    now: Date.now(),
    ...(options.probe ? { probe: options.probe } : {}),
  });
  if (pool.healthy.length === 0) {
    const why = [
      ...pool.unavailable.map((item) => `${item.adapter.name}: ${item.probe.message}`),
      ...pool.coolingDown.map((item) => `${item.adapter.name}: cooling down after "${item.reason}"`),
    ];
    throw new TollgateError(
      'usage',
      `no agent CLI can run the analyses (alerts.agents: ${preference.join(', ')}); install or log in to one`,
      why,
    );
  }
  const settingsOf = (adapter: RegisteredAdapter, role: AgentRole): AgentSettings => {
    const own = config.adapters[adapter.name];
    const definition = definitions[role];
    const model = modelFor(definition, adapter.name) ?? own?.model;
    return {
      thinkingBudget: definition.effort ?? own?.thinkingBudget ?? 'medium',
      allowToolUse: true,
      maxTurns: definition.maxTurns ?? config.maxTurns,
      ...(model ? { model } : {}),
      ...(definition.tools ? { tools: definition.tools } : {}),
    };
  };
  const agentEnv: NodeJS.ProcessEnv = { ...options.env };
  for (const name of CREDENTIAL_ENV) delete agentEnv[name];
  const onUsageLimit = async (slot: { adapter: RegisteredAdapter; status: string; message?: string }) => {
    if (repoRoot && slot.status === 'usage_limit') {
      await markAdapterUnhealthy(repoRoot, slot.adapter.name, slot.message ?? 'usage limit', new Date()).catch(
        () => {},
      );
    }
  };

  return { pool, settingsOf, definitions, agentEnv, onUsageLimit };
}
