import { z } from 'zod';
import {
  DECLARED_VALIDATORS_KEY,
  type DeclaredValidator,
  type DeclaredValidators,
  declaredValidatorsSchema,
} from '../../core/config/declared-validators.js';
import { type AnyToolDefinition, defineTool } from '../../core/pipeline/tool.js';

/**
 * A validator a project declares in its config (`validators.<name>`), made into a registry entry like a built-in
 * one: its options are the `validators` section (it reads its own entry), so its switch, `--only`, MCP tool, report
 * section and `validation.required` follow from the registry as for every other validator.
 */
export function declaredValidatorTool(name: string, declaration: DeclaredValidator): AnyToolDefinition {
  return defineTool({
    name,
    title: declaration.title ?? name,
    description:
      declaration.description ??
      `Runs the project's own validator \`${name}\` (config \`validators.${name}\`: \`${declaration.run}\`) on the change and reports its findings. Call it before declaring a change done; no change is trivial for it.`,
    configKey: DECLARED_VALIDATORS_KEY,
    optionsSchema: declaredValidatorsSchema,
    inputSchema: z.object({}).strict(),
    permissions: ['runCommands'],
    enabledByDefault: true,
    run: async (ctx) => {
      const { runDeclaredValidator } = await import('./run-declared.js');
      const current = (ctx.options as DeclaredValidators)[name];
      return runDeclaredValidator(name, current ?? declaration, ctx);
    },
  });
}

/** One registry entry per declared validator, in the order the config lists them. */
export function declaredValidatorTools(section: DeclaredValidators): AnyToolDefinition[] {
  return Object.entries(section).map(([name, declaration]) => declaredValidatorTool(name, declaration));
}
