import { type AgentStatus, describeAgents, renderAgents } from '../agents/status.js';
import { findRepoRoot } from '../core/config/repo-root.js';
import { isTollgateError } from '../core/errors.js';
import {
  agentSettingsFor,
  type CodeReviewOptions,
  codeReviewOptionsSchema,
} from '../validators/code-review/options.js';

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
    // The loader already validated the section (its values are parsed: durations are milliseconds), so it is used as
    // it is; parsing it a second time would reject those values and silently fall back to the defaults.
    if (loaded.config.code_review !== undefined) reviewOptions = loaded.config.code_review as CodeReviewOptions;
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
