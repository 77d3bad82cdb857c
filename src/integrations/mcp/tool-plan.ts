import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { isToolEnabled, type TollgateConfig } from '../../core/config/schema.js';
import type { AnyToolDefinition, Permission } from '../../core/pipeline/tool.js';
import { PARALLEL_VALIDATION } from '../../core/run/parallel-validation.js';

/**
 * MCP names that differ from the validator's own, as Copilot's agent names these tools (secret scanning of given
 * paths, the advisory check of dependencies the agent is about to add). Every other validator keeps its name.
 */
const MCP_NAMES: Readonly<Record<string, string>> = {
  secrets: 'secret_scanning',
  advisories: 'dependency_advisories',
};

/** The MCP name of a validator's own tool. */
export function mcpNameOf(tool: AnyToolDefinition): string {
  return MCP_NAMES[tool.name] ?? tool.name;
}

/** One MCP tool that runs validators. */
export type ValidationToolPlan =
  /** Every active validator at once, on one snapshot: the call that can satisfy the gate. */
  | { kind: 'parallel'; name: typeof PARALLEL_VALIDATION; tools: AnyToolDefinition[] }
  /** One validator, with its own input; it covers the gate only when it is the only active one. */
  | { kind: 'single'; name: string; tool: AnyToolDefinition; coversAll: boolean };

/**
 * Which validation tools the agent sees, from the config with its `TOLLGATE_USE_<NAME>` switches already applied:
 * none with no active validator; the validator itself with one; with two or more, a `parallel_validation` wrapper
 * plus one tool per active validator (as Copilot's agent has `code_review`, `secret_scanning`, …), derived from the
 * registry, never a hand list.
 */
export function planValidationTools(
  registry: readonly AnyToolDefinition[],
  config: TollgateConfig,
): ValidationToolPlan[] {
  const active = registry.filter((tool) => isToolEnabled(config, tool));
  if (active.length === 0) return [];
  if (active.length === 1) return [{ kind: 'single', name: mcpNameOf(active[0]!), tool: active[0]!, coversAll: true }];
  return [
    { kind: 'parallel', name: PARALLEL_VALIDATION, tools: active },
    ...active.map((tool) => ({ kind: 'single' as const, name: mcpNameOf(tool), tool, coversAll: false })),
  ];
}

/** Permissions that let a validator change things around it: running project commands, or agents. */
const ACTING: readonly Permission[] = ['runCommands', 'spawnAgents', 'writeFiles'];
/** Permissions that take a validator outside the machine: databases, model APIs, whatever project commands reach. */
const OPEN_WORLD: readonly Permission[] = ['network', 'spawnAgents', 'runCommands'];

/**
 * What a client is told about a validation tool, truthfully: read-only only when none of its validators runs
 * commands or agents; open-world when one reaches the network (declared, or optional and allowed by the config).
 * Never destructive: validators run the project's own checks, which are not meant to change anything.
 */
export function annotationsOf(plan: ValidationToolPlan, config: TollgateConfig): ToolAnnotations {
  const tools = plan.kind === 'parallel' ? plan.tools : [plan.tool];
  const has = (wanted: readonly Permission[]) =>
    tools.some((tool) => tool.permissions.some((permission) => wanted.includes(permission)));
  const optionalNetwork = tools.some(
    (tool) =>
      config.permissions.network === 'allow' &&
      tool.mayUseNetwork?.((config as Record<string, unknown>)[tool.configKey]) === true,
  );
  const readOnly = !has(ACTING);
  return {
    readOnlyHint: readOnly,
    ...(readOnly ? {} : { destructiveHint: false }),
    openWorldHint: has(OPEN_WORLD) || optionalNetwork,
  };
}
