import { createHash } from 'node:crypto';
import { configEditEffects } from '../policy/config-edit-effects.js';
import { PolicyResolver } from '../policy/effective-policy.js';
import { COMMITTED_WAIVERS_FILE } from '../state/committed-waivers-file.js';
import type { Env } from './env-overrides.js';
import type { LoadedConfig } from './loaded-config.js';
import { CONFIG_FILE_NAMES, type ConfigFileLocation } from './locate-file.js';
import type { Registries } from './registries.js';
import { toolOptions } from './schema.js';

export interface BasePolicyInput {
  repoRoot: string;
  env: Env;
  /** The file the working copy's config came from (null: none). */
  location: ConfigFileLocation | null;
  registries: Registries;
  /** A base the user named (`--base`); default: the change set's default base, or the base config's `base:`. */
  base?: string | undefined;
  /** Parses config text, as `loadConfig` does. */
  parse(text: string, file: string | null): LoadedConfig;
}

/**
 * The working copy's config (already parsed, so a broken file is still reported) replaced by the config the policy
 * at the base holds, unless the two are the same or a person accepted the edit; then the files that config names
 * as policy (committed waivers, each validator's `policyFiles`) decided the same way. The hash covers the decision.
 */
export async function withBasePolicy(working: LoadedConfig, input: BasePolicyInput): Promise<LoadedConfig> {
  let resolver = await PolicyResolver.open({
    repoRoot: input.repoRoot,
    env: input.env as NodeJS.ProcessEnv,
    base: input.base,
  });
  if (resolver.mode === 'unversioned') return { ...working, policy: resolver.policy() };
  let loaded = await effectiveConfig(resolver, working, input);
  // The base config may name its own base (`base: origin/develop`): its policy is read there.
  if (input.base === undefined && loaded.config.base) {
    const rebased = await resolver.rebased(loaded.config.base, input.env as NodeJS.ProcessEnv);
    if (rebased !== resolver) {
      resolver = rebased;
      loaded = await effectiveConfig(resolver, working, input);
    }
  }
  await resolver.resolve(policyPaths(resolver, loaded, input));
  const policy = resolver.policy();
  // The base's config stands in for a pending edit: the run says what the edit would have changed.
  const configEdit =
    loaded === working ? null : configEditEffects(loaded.config, working.config, input.registries.tools);
  return {
    ...loaded,
    policy: configEdit ? { ...policy, configEdit } : policy,
    hash: hashWithPolicy(loaded.hash, policy.digest()),
  };
}

/** The policy files a config names (committed waivers, each validator's `policyFiles`), as repository paths. */
function policyPaths(resolver: PolicyResolver, loaded: LoadedConfig, input: BasePolicyInput): string[] {
  const named = [COMMITTED_WAIVERS_FILE];
  for (const tool of input.registries.tools) {
    if (tool.policyFiles) named.push(...tool.policyFiles(toolOptions(loaded.config, tool)));
  }
  return named.map((file) => resolver.pathOf(file)).filter((path) => path !== null);
}

/** The config hash, extended by the policy digest when an edit is pending or accepted (else unchanged). */
export function hashWithPolicy(configHash: string, digest: string): string {
  return digest === '' ? configHash : createHash('sha256').update(`${configHash}\0${digest}`).digest('hex');
}

async function effectiveConfig(
  resolver: PolicyResolver,
  working: LoadedConfig,
  input: BasePolicyInput,
): Promise<LoadedConfig> {
  const { location } = input;
  // `TOLLGATE_CONFIG` outside the repository is the user's own policy, not the change's.
  const named = location ? resolver.pathOf(location.path) : null;
  if (location && named === null) return working;
  const candidates = named !== null && !isDefaultName(named) ? [named] : [...CONFIG_FILE_NAMES];
  // The working copy's config names the policy files the base's usually names too: one `git ls-tree` for both steps.
  const files = await resolver.resolve(candidates, policyPaths(resolver, working, input));
  if (files.every((file) => file.status !== 'changed')) return working;
  const chosen = files.find((file) => file.effective !== null);
  if (!chosen) return input.parse('', null);
  const short = resolver.baseCommit?.slice(0, 12) ?? 'none';
  return { ...input.parse(chosen.effective!.toString('utf8'), `${chosen.path} (base ${short})`), file: chosen.path };
}

function isDefaultName(path: string): boolean {
  return (CONFIG_FILE_NAMES as readonly string[]).includes(path);
}
