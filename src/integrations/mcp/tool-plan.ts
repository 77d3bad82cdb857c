import { isToolEnabled, type TollgateConfig } from '../../core/config/schema.js';
import type { AnyToolDefinition } from '../../core/pipeline/tool.js';
import { PARALLEL_VALIDATION } from '../../core/run/parallel-validation.js';

/**
 * Validators that are also offered on their own, with their own input, beside `parallel_validation` (as in Copilot:
 * secret scanning of given paths, and the advisory check of dependencies the agent is about to add).
 */
const STANDALONE_NAMES: Readonly<Record<string, string>> = {
  secrets: 'secret_scanning',
  advisories: 'dependency_advisories',
};

/** The MCP name of a validator's own tool: the validator's name, except for the standalone ones above. */
export function mcpNameOf(tool: AnyToolDefinition): string {
  return STANDALONE_NAMES[tool.name] ?? tool.name;
}

/** One MCP tool that runs validators. */
export type ValidationToolPlan =
  /** Two or more validators active: one wrapper runs them all. */
  | { kind: 'parallel'; name: typeof PARALLEL_VALIDATION; tools: AnyToolDefinition[] }
  /** One validator active, or a standalone one: its own tool, with its own input. */
  | { kind: 'single'; name: string; tool: AnyToolDefinition; coversAll: boolean };

/**
 * Which validation tools the agent sees, from the config with its
 * `TOLLGATE_USE_<NAME>` switches already applied: none with no active validator, the validator itself with one, a
 * `parallel_validation` wrapper with two or more; and the standalone secret and advisory tools whenever their
 * validator is active.
 */
export function planValidationTools(
  registry: readonly AnyToolDefinition[],
  config: TollgateConfig,
): ValidationToolPlan[] {
  const active = registry.filter((tool) => isToolEnabled(config, tool));
  const plans: ValidationToolPlan[] = [];
  if (active.length === 1)
    plans.push({ kind: 'single', name: mcpNameOf(active[0]!), tool: active[0]!, coversAll: true });
  if (active.length >= 2) plans.push({ kind: 'parallel', name: PARALLEL_VALIDATION, tools: active });
  if (active.length >= 2) {
    for (const tool of active) {
      if (STANDALONE_NAMES[tool.name]) plans.push({ kind: 'single', name: mcpNameOf(tool), tool, coversAll: false });
    }
  }
  return plans;
}
