import { readFile } from 'node:fs/promises';
import { TollgateError } from '../errors.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import { configHashFor } from './config-hash.js';
import { type DeclaredValidators, peekDeclaredValidators } from './declared-validators.js';
import { describeValue } from './describe-value.js';
import { type Env, readEnvSwitches } from './env-overrides.js';
import type { ConfigSource, LoadedConfig } from './loaded-config.js';
import { type ConfigFileLocation, locateConfigFile } from './locate-file.js';
import { hashWithPolicy, withBasePolicy } from './policy-config.js';
import { lookUpRegistries, type Registries } from './registries.js';
import { buildConfigSchema, type TollgateConfig } from './schema.js';
import { configLeaves, isPlainObject } from './schema-walk.js';
import { applyUserOnlySettings } from './user-only-settings.js';
import { byPosition, parseYamlSource } from './yaml-source.js';
import { issueProblems } from './zod-issues.js';

export type { ConfigSource, LoadedConfig } from './loaded-config.js';

export interface LoadConfigOptions {
  repoRoot: string;
  /** What `TOLLGATE_CONFIG` is relative to. Default: `process.cwd()`. */
  cwd?: string;
  env: Env;
  /** The validators whose sections the config may hold. Default: the registry (`src/validators/index.ts`). */
  tools?: readonly AnyToolDefinition[];
  /** Every registry the schema reads. Default: looked up (`lookUpRegistries`), with `tools` in place of the validators. */
  registries?: Registries;
  /** The base the user named (`--base`, `scan --history A..B`): the policy is read there. */
  base?: string | undefined;
}

/**
 * Reads, validates and resolves the config: the file (if any), then `TOLLGATE_USE_<NAME>` switches. Every problem
 * is reported at once in one TollgateError('config'), each line naming `file:line:col` and the field path. In a
 * repository, the policy at the base decides (`withBasePolicy`): an edit of the config that no person accepted is
 * reported by the run, not applied.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const location = await locateConfigFile({
    repoRoot: options.repoRoot,
    cwd: options.cwd ?? process.cwd(),
    env: options.env,
  });
  const text = location ? await readConfigText(location) : '';
  const found = options.registries ?? (await lookUpRegistries());
  const registries = options.tools ? { ...found, tools: options.tools } : found;
  const parse = (source: string, file: string | null) =>
    parseConfigText({ text: source, file, env: options.env, registries });
  const loaded = await withBasePolicy(parse(text, location?.label ?? null), {
    repoRoot: options.repoRoot,
    env: options.env,
    location,
    registries,
    base: options.base,
    parse,
  });
  // A repo-relative label means the file lies inside the repository: committed by whoever wrote the change.
  return applyUserOnlySettings(loaded, location !== null && location.label !== location.path, options.env);
}

export interface ParseConfigTextOptions {
  text: string;
  /** How messages name the file; null when there is no file (the text is then empty). */
  file: string | null;
  env: Env;
  registries: Registries;
}

/** `loadConfig` without the filesystem: the config text is given. */
export function parseConfigText(options: ParseConfigTextOptions): LoadedConfig {
  const label = options.file ?? 'config';
  const source = parseYamlSource(options.text);
  const fileProblems = [...source.problems];
  let raw: Record<string, unknown> = {};
  if (fileProblems.length === 0 && source.value !== null && source.value !== undefined) {
    if (isPlainObject(source.value)) raw = withoutEmptyValues(source.value);
    else {
      fileProblems.push({
        ...source.locate([]),
        message: `expected a mapping of settings at the top level (like "checks:"), got ${describeValue(source.value)}`,
      });
    }
  }
  // The validators this config declares join the registry first: the schema of the rest (their switches) and the
  // `TOLLGATE_USE_<NAME>` variables follow from it.
  const registries = withDeclaredTools(options.registries, peekDeclaredValidators(raw));
  const { tools } = registries;
  const schema = buildConfigSchema(registries);
  const { switches, problems: envProblems } = readEnvSwitches(options.env, tools);

  const parsed = fileProblems.length === 0 ? schema.safeParse(raw, { reportInput: true, jitless: true }) : null;
  if (parsed && !parsed.success) fileProblems.push(...issueProblems(parsed.error.issues, schema, source));

  const lines = [
    ...fileProblems.sort(byPosition).map((problem) => `${label}:${problem.line}:${problem.col} ${problem.message}`),
    ...envProblems,
  ];
  if (lines.length > 0 || !parsed?.success) throw new TollgateError('config', lines[0]!, lines.slice(1));

  const config = parsed.data as unknown as TollgateConfig;
  const switchedPaths = new Set<string>();
  for (const [toolName, enabled] of switches) {
    const current = config.validation[toolName];
    config.validation[toolName] = { ...(isPlainObject(current) ? current : {}), enabled };
    switchedPaths.add(`validation.${toolName}.enabled`);
  }

  const sources = new Map<string, ConfigSource>();
  for (const leaf of configLeaves(schema, config)) {
    const from: ConfigSource = switchedPaths.has(leaf.key) ? 'env' : hasPath(raw, leaf.path) ? 'file' : 'default';
    sources.set(leaf.key, from);
  }
  return { config, file: options.file, hash: configHashFor(config), sources };
}

/** The registries with the validators a config declares added to `tools` (none when it declares none). */
export function withDeclaredTools(registries: Registries, declared: DeclaredValidators): Registries {
  const tools = registries.declareTools?.(declared) ?? [];
  return tools.length === 0 ? registries : { ...registries, tools: [...registries.tools, ...tools] };
}

/**
 * Overrides settings from command-line flags (`{ base: flags.base }`), marking them as from 'flag' and recomputing
 * the hash. Values are in effective form (durations in milliseconds) and already validated by the flag parser;
 * undefined values are skipped so a command can pass every optional flag as is.
 */
export function applyFlagOverrides(loaded: LoadedConfig, overrides: Readonly<Record<string, unknown>>): LoadedConfig {
  const config = structuredClone(loaded.config);
  const sources = new Map(loaded.sources);
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const settings = [...sources.keys()].filter((setting) => setting === key || setting.startsWith(`${key}.`));
    // A programming error, not a user's: the command named a setting the schema does not have.
    if (settings.length === 0) throw new Error(`applyFlagOverrides: "${key}" is not a config setting`);
    setPath(config, key.split('.'), value);
    for (const setting of settings) sources.set(setting, 'flag');
  }
  const hash = hashWithPolicy(configHashFor(config), loaded.policy?.digest() ?? '');
  return { config, file: loaded.file, hash, sources, ...(loaded.policy ? { policy: loaded.policy } : {}) };
}

async function readConfigText(location: ConfigFileLocation): Promise<string> {
  try {
    return await readFile(location.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    if (code === 'EISDIR') throw new TollgateError('config', `${location.label} is a directory; expected a YAML file`);
    throw new TollgateError('io', `${location.label}: cannot read the config file (${code})`);
  }
}

/**
 * `key:` with nothing after it means "not set" rather than "null": no setting is nullable, and this lets a user
 * keep a section's key with only commented examples under it. Lists keep their entries (an empty entry is an error).
 */
function withoutEmptyValues(record: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    // defineProperty, not assignment: a `__proto__` key must stay a key (and be reported as unknown).
    Object.defineProperty(kept, key, {
      value: stripInside(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return kept;
}

function stripInside(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripInside);
  if (isPlainObject(value)) return withoutEmptyValues(value);
  return value;
}

function hasPath(record: Record<string, unknown>, path: readonly string[]): boolean {
  let current: unknown = record;
  for (const segment of path) {
    if (!isPlainObject(current) || !Object.hasOwn(current, segment)) return false;
    current = current[segment];
  }
  return true;
}

function setPath(record: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let current = record;
  for (const segment of path.slice(0, -1)) {
    const next = current[segment];
    if (!isPlainObject(next)) current[segment] = {};
    current = current[segment] as Record<string, unknown>;
  }
  current[path[path.length - 1]!] = value;
}
