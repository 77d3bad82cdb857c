import { stringify } from 'yaml';
import { useVariableFor } from './env-overrides.js';
import { type ConfigSource, type LoadedConfig, withDeclaredTools } from './load.js';
import type { Registries } from './registries.js';
import { buildConfigSchema } from './schema.js';
import { configLeaves, isPlainObject, schemaAt, toWrittenForm } from './schema-walk.js';
import { redactSensitive } from './sensitive-keys.js';

/**
 * One setting of the effective config as `config show` prints it: value in written form ("10m") with credentials
 * (values under keys like `*_TOKEN`) redacted, and its source.
 */
export interface ShownSetting {
  key: string;
  path: readonly string[];
  /** Undefined for an optional setting left unset. */
  value: unknown;
  source: ConfigSource;
}

export function shownSettings(loaded: LoadedConfig, registries: Registries): ShownSetting[] {
  // The switches of the validators the config declares are settings too.
  const schema = buildConfigSchema(withDeclaredTools(registries, loaded.config.validators ?? {}));
  return configLeaves(schema, loaded.config).map((leaf) => {
    const leafSchema = schemaAt(schema, leaf.path);
    return {
      key: leaf.key,
      path: leaf.path,
      value: redactSensitive(leafSchema ? toWrittenForm(leafSchema, leaf.value) : leaf.value, leaf.path.at(-1)),
      source: loaded.sources.get(leaf.key) ?? 'default',
    };
  });
}

/** `config show --json`: `{ "validation.timeout": { "value": "10m", "source": "default" }, … }`; unset is null. */
export function renderConfigJson(loaded: LoadedConfig, registries: Registries): string {
  const entries = shownSettings(loaded, registries).map((setting) => [
    setting.key,
    { value: setting.value ?? null, source: setting.source },
  ]);
  return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
}

/**
 * `config show`: the effective config as YAML, each setting followed by where its value came from
 * (`# default`, `# from file`, `# env TOLLGATE_USE_CHECKS`, `# from flag`). Pasting it into a config file works.
 */
export function renderConfigText(loaded: LoadedConfig, registries: Registries): string {
  const lines = [
    loaded.file === null
      ? '# no config file: every value is a default or from the environment'
      : `# config file: ${loaded.file}`,
  ];
  let printed: readonly string[] = [];
  for (const setting of shownSettings(loaded, registries)) {
    const parents = setting.path.slice(0, -1);
    let shared = 0;
    while (shared < parents.length && parents[shared] === printed[shared]) shared++;
    for (let depth = shared; depth < parents.length; depth++) lines.push(`${indent(depth)}${parents[depth]}:`);
    printed = parents;
    const depth = parents.length;
    const key = `${indent(depth)}${setting.path[depth]}:`;
    const comment = `# ${describeSource(setting)}`;
    if (setting.value === undefined) lines.push(`${key}  ${comment} (not set)`);
    else if (isBlock(setting.value)) {
      lines.push(`${key}  ${comment}`);
      for (const line of stringify(setting.value, { indent: 2 }).trimEnd().split('\n')) {
        lines.push(`${indent(depth + 1)}${line}`);
      }
    } else lines.push(`${key} ${inline(setting.value)}  ${comment}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeSource(setting: ShownSetting): string {
  switch (setting.source) {
    case 'default':
      return 'default';
    case 'file':
      return 'from file';
    case 'flag':
      return 'from flag';
    case 'env': {
      // The only settings the environment sets are the switches `validation.<tool>.enabled`.
      const tool = setting.path[1];
      return tool ? `env ${useVariableFor(tool)}` : 'env';
    }
  }
}

/** Non-empty collections holding collections go below their key; everything else fits on the key's line. */
function isBlock(value: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => typeof item === 'object' && item !== null);
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return false;
}

function inline(value: unknown): string {
  if (Array.isArray(value) && value.length === 0) return '[]';
  return stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd();
}

function indent(depth: number): string {
  return '  '.repeat(depth);
}
