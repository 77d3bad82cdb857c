import { trustCodexHook } from './codex-install.js';
import type { InstallStep } from './hook-agent.js';
import type { HookAgentName } from './index.js';

/**
 * An agent's own step once `tollgate install` wrote its config files (Codex trusts the hook it was given). Kept out
 * of the agents' `HookAgent` objects: those are what the stop hook's small bundle reads payloads with, and a step here
 * brings the config file editors (jsonc-parser, smol-toml, the Codex trust file), which every stop would then load.
 */
export const afterInstallSteps: { readonly [Name in HookAgentName]?: (step: InstallStep) => Promise<void> } = {
  codex: trustCodexHook,
};
