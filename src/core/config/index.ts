export { canonicalJson, configHashFor } from './config-hash.js';
export { type Env, readEnvSwitches, useVariableFor } from './env-overrides.js';
export { type WriteConfigTemplateOptions, type WrittenConfig, writeConfigTemplate } from './init-config.js';
export { configJsonSchema, renderConfigJsonSchema } from './json-schema.js';
export {
  applyFlagOverrides,
  type ConfigSource,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
  parseConfigText,
} from './load.js';
export { CONFIG_FILE_NAMES, locateConfigFile } from './locate-file.js';
export { lookUpRegistries, type Registries } from './registries.js';
export { findRepoRoot } from './repo-root.js';
export {
  buildConfigSchema,
  type ConfigSchema,
  coreSectionsFor,
  type HookCommand,
  isToolEnabled,
  type TollgateConfig,
  toolOptions,
} from './schema.js';
export { renderConfigJson, renderConfigText, type ShownSetting, shownSettings } from './show.js';
export { CONFIG_DOC_URL, extractConfigTemplate, readConfigTemplate } from './template.js';
export { formatDuration, formatSize, parseDuration, parseSize } from './units.js';
