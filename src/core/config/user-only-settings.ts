import { TollgateError } from '../errors.js';
import { configHashFor } from './config-hash.js';
import type { Env } from './env-overrides.js';
import { isPlainObject } from './schema-walk.js';

/**
 * Settings that send what tollgate finds somewhere else, so only the person running tollgate may set them: a flag,
 * the environment, or a config file outside the repository (`TOLLGATE_CONFIG=~/tollgate.yaml`). A committed
 * `tollgate.config.yaml` is written by whoever opened the pull request; were it allowed to turn on verification and
 * name the endpoint, a plain `tollgate scan` would send every GitHub token it finds to that person's host.
 */
const USER_ONLY: readonly { key: string; allows?: (value: unknown) => boolean; why: string }[] = [
  {
    key: 'secrets.verify',
    // `verify: false` in a repository is harmless: it only says what the default already is.
    allows: (value) => value === false,
    why: 'verification sends each credential found to its provider',
  },
  { key: 'secrets.verifyEndpoints', why: 'an endpoint decides where found credentials are sent' },
];

const TRUE_VALUES = new Set(['1', 'true', 'yes']);

/**
 * Refuses user-only settings in a repository's config file (exit 2, naming the field and where to set it instead),
 * and applies `TOLLGATE_VERIFY=1`. `fromRepository`: the config file read lies inside the repository.
 */
/** What `loadConfig` returns, as far as this needs it (spelled out here: load.ts imports this module). */
interface LoadedShape {
  config: object;
  file: string | null;
  hash: string;
  sources: Map<string, 'default' | 'file' | 'env' | 'flag'>;
}

export function applyUserOnlySettings<Loaded extends LoadedShape>(
  loaded: Loaded,
  fromRepository: boolean,
  env: Env,
): Loaded {
  const problems: string[] = [];
  if (fromRepository) {
    for (const setting of USER_ONLY) {
      const fromFile = [...loaded.sources].some(
        ([key, source]) => source === 'file' && (key === setting.key || key.startsWith(`${setting.key}.`)),
      );
      if (!fromFile || setting.allows?.(valueAt(loaded.config, setting.key))) continue;
      problems.push(
        `${loaded.file}: ${setting.key} cannot be set in the repository's config (${setting.why}); use --verify or TOLLGATE_VERIFY=1, or a config outside the repository (TOLLGATE_CONFIG)`,
      );
    }
  }
  if (problems.length > 0) throw new TollgateError('config', problems[0]!, problems.slice(1));
  const raw = env.TOLLGATE_VERIFY?.trim().toLowerCase();
  if (raw === undefined || raw === '' || !TRUE_VALUES.has(raw)) return loaded;
  const config = structuredClone(loaded.config) as unknown as Record<string, unknown>;
  const secrets = isPlainObject(config.secrets) ? config.secrets : {};
  config.secrets = { ...secrets, verify: true };
  const sources = new Map(loaded.sources);
  sources.set('secrets.verify', 'env');
  const effective = config as unknown as Loaded['config'];
  return {
    ...loaded,
    config: effective,
    sources,
    hash: configHashFor(effective),
  };
}

function valueAt(config: unknown, key: string): unknown {
  let value: unknown = config;
  for (const part of key.split('.')) value = isPlainObject(value) ? value[part] : undefined;
  return value;
}
