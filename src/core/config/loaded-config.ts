import type { EffectivePolicy } from '../policy/effective-policy.js';
import type { TollgateConfig } from './schema.js';

/** Where an effective value came from, most specific last: a flag beats env, env beats the file. */
export type ConfigSource = 'default' | 'file' | 'env' | 'flag';

export interface LoadedConfig {
  config: TollgateConfig;
  /** The file read (repo-relative when inside the repository, else absolute), or null when there is none. */
  file: string | null;
  /** sha256 of the canonical effective config (`configHashFor`), with the policy digest while an edit is pending or accepted. */
  hash: string;
  /** Every setting's dotted path (`validation.checks.enabled`, `checks`) → where its value came from. */
  sources: Map<string, ConfigSource>;
  /**
   * The policy the config came from (docs/policy.md): the base's, or an edit a person accepted; which policy edits
   * are pending; how validators read their suppression files. Absent for text parsed without a repository.
   */
  policy?: EffectivePolicy;
}
