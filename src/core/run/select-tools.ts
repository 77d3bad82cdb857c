import { isToolEnabled, type TollgateConfig } from '../config/schema.js';
import { TollgateError } from '../errors.js';
import { normalizeToolName } from '../pipeline/execute-tool.js';
import type { AnyToolDefinition } from '../pipeline/tool.js';

export interface ToolSelection {
  tools: AnyToolDefinition[];
  /** True when --only/--skip narrowed the enabled set: such a run never stands in for a full one. */
  partial: boolean;
}

/**
 * The validators a run uses: the enabled ones, narrowed by `--only` (which may also name a disabled validator: asking
 * for it by name is explicit) and `--skip`.
 */
export function selectTools(
  all: readonly AnyToolDefinition[],
  config: TollgateConfig,
  flags: { only: readonly string[]; skip: readonly string[] },
): ToolSelection {
  // A name or an alias (`review` for `code_review`) → the tool's name.
  const byName = new Map(
    all.flatMap((tool) => [tool.name, ...(tool.aliases ?? [])].map((name) => [name, tool.name] as const)),
  );
  const resolve = (flag: string, names: readonly string[]) =>
    new Set(
      names.map((name) => {
        const toolName = byName.get(normalizeToolName(name));
        if (toolName === undefined) {
          const known = all.map((tool) => tool.name).join(', ');
          throw new TollgateError(
            'usage',
            `${flag}: unknown validator ${JSON.stringify(name)}; expected one of ${known}`,
          );
        }
        return toolName;
      }),
    );
  const only = resolve('--only', flags.only);
  const skip = resolve('--skip', flags.skip);
  const enabled = all.filter((tool) => isToolEnabled(config, tool));
  const chosen = (only.size > 0 ? all.filter((tool) => only.has(tool.name)) : enabled).filter(
    (tool) => !skip.has(tool.name),
  );
  if (chosen.length === 0 && (only.size > 0 || skip.size > 0)) {
    const left = only.size > 0 ? [...only] : enabled.map((tool) => tool.name);
    throw new TollgateError(
      'usage',
      `--skip: no validator left to run (${left.join(', ') || 'none enabled'} all skipped); skip fewer, or drop --only/--skip to run every enabled validator`,
    );
  }
  const partial = enabled.some((tool) => !chosen.includes(tool));
  return { tools: chosen, partial };
}

/** The validators that must really run: `validation.required` (enabled ones), or every enabled one when strict. */
export function requiredValidators(
  all: readonly AnyToolDefinition[],
  config: TollgateConfig,
  strict = false,
): string[] {
  const enabled = all.filter((tool) => isToolEnabled(config, tool)).map((tool) => tool.name);
  if (strict || config.validation.strict) return enabled;
  return enabled.filter((name) => config.validation.required.includes(name));
}

/** Validators switched off by the config or `TOLLGATE_USE_<NAME>=0`, for the report. */
export function offValidators(all: readonly AnyToolDefinition[], config: TollgateConfig): string[] {
  return all.filter((tool) => !isToolEnabled(config, tool)).map((tool) => tool.name);
}
