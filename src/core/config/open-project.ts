import type { AnyToolDefinition } from '../pipeline/tool.js';
import { type LoadedConfig, loadConfig } from './load.js';
import type { Registries } from './registries.js';
import { findRepoRoot } from './repo-root.js';

/** A repository with its effective config: what nearly every command starts from. */
export interface Project {
  repoRoot: string;
  loaded: LoadedConfig;
}

export interface OpenProjectOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The validators whose config sections to read (default: all registered). */
  tools?: readonly AnyToolDefinition[];
  /** Every registry the config schema reads (default: looked up). */
  registries?: Registries;
  /** Where relative config paths resolve (default: `cwd`). */
  configCwd?: 'cwd' | 'repoRoot';
  /** The base the user named (`--base`): the policy is read there (docs/policy.md). */
  base?: string | undefined;
}

/** The repository around `cwd` and its config; a usage error (not a repository, a bad config) says which. */
export async function openProject(options: OpenProjectOptions): Promise<Project> {
  const repoRoot = await findRepoRoot(options.cwd, options.env);
  const loaded = await loadConfig({
    repoRoot,
    cwd: options.configCwd === 'repoRoot' ? repoRoot : options.cwd,
    env: options.env,
    base: options.base,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.registries ? { registries: options.registries } : {}),
  });
  return { repoRoot, loaded };
}
