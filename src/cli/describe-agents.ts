import { type AgentStatus, describeAgents, renderAgents } from '../agents/status.js';
import { findRepoRoot } from '../core/config/repo-root.js';
import { isTollgateError } from '../core/errors.js';
import { agentSettingsFor, codeReviewOptionsSchema } from '../validators/code-review/options.js';

/**
 * `tollgate agents` in a directory: inside a repository, the cooldowns come from its `.tollgate/state.json` and the
 * per-CLI settings from its config; outside one, defaults and no health.
 */
export async function describeAgentsHere(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now?: number;
}): Promise<{ statuses: AgentStatus[]; text: string }> {
  const repoRoot = await findRepoRoot(options.cwd, options.env).catch((error: unknown) => {
    if (isTollgateError(error) && error.code === 'not_a_repo') return null;
    throw error;
  });
  let reviewOptions = codeReviewOptionsSchema.parse(undefined);
  if (repoRoot) {
    const { loadConfig } = await import('../core/config/load.js');
    const loaded = await loadConfig({ repoRoot, cwd: options.cwd, env: options.env });
    const section = codeReviewOptionsSchema.safeParse(loaded.config.code_review);
    if (section.success) reviewOptions = section.data;
  }
  const statuses = await describeAgents({
    repoRoot,
    cwd: options.cwd,
    env: options.env,
    now: options.now ?? Date.now(),
    settingsFor: (name) => agentSettingsFor(reviewOptions, name),
  });
  return { statuses, text: renderAgents(statuses) };
}
