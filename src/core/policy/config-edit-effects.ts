import { canonicalJson } from '../config/config-hash.js';

/** A parsed config (`ParsedConfig`), as far as the comparison reads it. */
export interface ParsedConfig {
  validation: Record<string, unknown>;
  [section: string]: unknown;
}

/**
 * What a pending edit of the config would have changed, had it applied: the run reports it instead of staying
 * silent ("no checks configured" while the edit adds two). Compared on the parsed configs, so formatting and
 * comments are no change; environment overrides apply to both sides alike.
 */
export interface ConfigEditEffects {
  /** Checks by name: in the edit only, in the base only, in both but different. */
  checksAdded: string[];
  checksRemoved: string[];
  checksChanged: string[];
  /** Validators the edit switches on or off (`validation.<name>.enabled`). */
  turnedOn: string[];
  turnedOff: string[];
  /** Other settings the edit changes: top-level sections, and `validation.<setting>`. */
  otherSettings: string[];
}

/** A validator as the comparison needs it. */
export interface EditedTool {
  name: string;
  enabledByDefault: boolean;
}

const CHECKS_KEY = 'checks';

/** Null when the parsed configs are the same (an edit of comments or layout only). */
export function configEditEffects(
  base: ParsedConfig,
  working: ParsedConfig,
  tools: readonly EditedTool[],
): ConfigEditEffects | null {
  const baseChecks = namedEntries(base[CHECKS_KEY]);
  const workingChecks = namedEntries(working[CHECKS_KEY]);
  const enabled = (config: ParsedConfig, tool: EditedTool) =>
    (config.validation[tool.name] as { enabled?: boolean } | undefined)?.enabled ?? tool.enabledByDefault;
  const toolNames = new Set(tools.map((tool) => tool.name));
  const effects: ConfigEditEffects = {
    checksAdded: [...workingChecks.keys()].filter((name) => !baseChecks.has(name)),
    checksRemoved: [...baseChecks.keys()].filter((name) => !workingChecks.has(name)),
    checksChanged: [...workingChecks.keys()].filter(
      (name) => baseChecks.has(name) && baseChecks.get(name) !== workingChecks.get(name),
    ),
    turnedOn: tools.filter((tool) => !enabled(base, tool) && enabled(working, tool)).map((tool) => tool.name),
    turnedOff: tools.filter((tool) => enabled(base, tool) && !enabled(working, tool)).map((tool) => tool.name),
    otherSettings: [
      ...differingKeys(base, working, (key) => key !== CHECKS_KEY && key !== 'validation'),
      ...differingKeys(base.validation, working.validation, (key) => !toolNames.has(key)).map(
        (key) => `validation.${key}`,
      ),
    ],
  };
  const changed = Object.values(effects).some((list) => list.length > 0);
  return changed ? effects : null;
}

/** The checks' names with their canonical text, in the config's order. */
function namedEntries(section: unknown): Map<string, string> {
  const entries = new Map<string, string>();
  if (!Array.isArray(section)) return entries;
  for (const entry of section) {
    const name = (entry as { name?: unknown } | null)?.name;
    if (typeof name === 'string') entries.set(name, canonicalJson(entry));
  }
  return entries;
}

function differingKeys(
  base: Record<string, unknown>,
  working: Record<string, unknown>,
  include: (key: string) => boolean,
): string[] {
  const keys = [...new Set([...Object.keys(base), ...Object.keys(working)])].filter(include).sort();
  return keys.filter((key) => canonicalJson(base[key]) !== canonicalJson(working[key]));
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
const named = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');

/**
 * The effects on checks as a run reports them, one clause each: "2 checks from your edit did not run (test, lint)".
 * Empty when the edit does not touch the checks.
 */
export function checksNotApplied(effects: ConfigEditEffects): string[] {
  const clauses: string[] = [];
  const { checksAdded: added, checksChanged: changed, checksRemoved: removed } = effects;
  if (added.length > 0) {
    clauses.push(`${plural(added.length, 'check', 'checks')} from your edit did not run (${added.join(', ')})`);
  }
  if (changed.length > 0) {
    clauses.push(
      `${plural(changed.length, 'check', 'checks')} your edit changes ran as the base has ${changed.length === 1 ? 'it' : 'them'} (${changed.join(', ')})`,
    );
  }
  if (removed.length > 0) {
    clauses.push(`${plural(removed.length, 'check', 'checks')} your edit removes still ran (${removed.join(', ')})`);
  }
  return clauses;
}

/** Every effect a run did not apply, one clause each, checks first. */
export function effectsNotApplied(effects: ConfigEditEffects): string[] {
  const clauses = checksNotApplied(effects);
  if (effects.turnedOff.length > 0) clauses.push(`your edit turns off ${named(effects.turnedOff)}`);
  if (effects.turnedOn.length > 0) clauses.push(`your edit turns on ${named(effects.turnedOn)}`);
  if (effects.otherSettings.length > 0) clauses.push(`your edit changes ${named(effects.otherSettings)}`);
  return clauses;
}

/** What the edit would do, for `tollgate policy status`: "adds checks test, lint; turns off `advisories`". */
export function describeConfigEdit(effects: ConfigEditEffects): string {
  const parts: string[] = [];
  const checks = (verb: string, names: readonly string[]) => {
    if (names.length > 0) parts.push(`${verb} ${names.length === 1 ? 'check' : 'checks'} ${names.join(', ')}`);
  };
  checks('adds', effects.checksAdded);
  checks('changes', effects.checksChanged);
  checks('removes', effects.checksRemoved);
  if (effects.turnedOff.length > 0) parts.push(`turns off ${named(effects.turnedOff)}`);
  if (effects.turnedOn.length > 0) parts.push(`turns on ${named(effects.turnedOn)}`);
  if (effects.otherSettings.length > 0) parts.push(`changes ${named(effects.otherSettings)}`);
  return parts.join('; ');
}
