import type { AnyToolDefinition } from '../pipeline/tool.js';
import { didYouMean } from './did-you-mean.js';

/** Environment variables are passed in, never read from `process.env` here, so a test or an MCP call can set its own. */
export type Env = Readonly<Record<string, string | undefined>>;

const USE_PREFIX = 'TOLLGATE_USE_';

/** `checks` → `TOLLGATE_USE_CHECKS`, `code_review` → `TOLLGATE_USE_CODE_REVIEW`. */
export function useVariableFor(toolName: string): string {
  return `${USE_PREFIX}${toolName.toUpperCase()}`;
}

/** `1`/`true` switch a validator on, `0`/`false` off; an empty value counts as unset (`TOLLGATE_USE_CHECKS= cmd`). */
const SWITCH_VALUES: Record<string, boolean> = { '1': true, true: true, '0': false, false: false };

export interface EnvSwitches {
  /** Tool name → enabled, for every `TOLLGATE_USE_<NAME>` that is set. */
  switches: Map<string, boolean>;
  /** One line per bad variable: `TOLLGATE_USE_CHECKS: expected 0 or 1, got "yes"`. */
  problems: string[];
}

/** Reads every `TOLLGATE_USE_<NAME>` variable; a name that is no validator is a problem too (with a suggestion). */
export function readEnvSwitches(env: Env, tools: readonly AnyToolDefinition[]): EnvSwitches {
  const switches = new Map<string, boolean>();
  const problems: string[] = [];
  const known = new Map(
    tools.flatMap((tool) =>
      [tool.name, ...(tool.aliases ?? [])].map((name) => [useVariableFor(name), tool.name] as const),
    ),
  );
  for (const variable of Object.keys(env).sort()) {
    if (!variable.startsWith(USE_PREFIX)) continue;
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const toolName = known.get(variable);
    if (toolName === undefined) {
      const suggestion = didYouMean(variable, [...known.keys()]);
      problems.push(
        `${variable}: no validator is named ${JSON.stringify(variable.slice(USE_PREFIX.length).toLowerCase())}` +
          (suggestion ? ` (did you mean ${suggestion}?)` : ` (known: ${[...known.keys()].join(', ')})`),
      );
      continue;
    }
    const enabled = SWITCH_VALUES[raw.trim().toLowerCase()];
    if (enabled === undefined) problems.push(`${variable}: expected 0 or 1, got ${JSON.stringify(raw)}`);
    else switches.set(toolName, enabled);
  }
  return { switches, problems };
}
