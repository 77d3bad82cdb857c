import { parseConfigText } from '../../src/core/config/load.js';
import type { AnyToolDefinition } from '../../src/core/pipeline/tool.js';
import { registriesWith } from './registries.js';

/** A gate run of `tools` over `repoRoot` with the default config (no config file), as tests start one. */
export function defaultGateOptions(repoRoot: string, tools: readonly AnyToolDefinition[]) {
  const loaded = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(tools) });
  return {
    repoRoot,
    config: loaded.config,
    configHash: loaded.hash,
    tools,
    command: 'test',
    version: 'test',
  };
}
