import { z } from 'zod';
import type { AnyToolDefinition } from '../pipeline/tool.js';
import type { TrivialDeclaration } from '../telemetry/index.js';

/** One tool's trivial-change declaration: the agent's judgement and why. */
export const trivialDeclarationSchema = z
  .object({
    isTrivial: z.boolean().describe('true only when this change cannot matter to this validator.'),
    reason: z.string().trim().min(1).max(2000).describe('Why, in one sentence.'),
  })
  .strict();

/**
 * The key a tool's declaration goes under in `parallel_validation`'s `trivialChangeDeclaration`: the tool name in
 * camelCase (`code_review` → `codeReview`), as in Copilot's wrapper.
 */
export function declarationKey(toolName: string): string {
  return toolName.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * `parallel_validation`'s input, built from the tools it wraps: each tool has its own idea of trivial, so each gets
 * its own declaration key, described by the tool's own description.
 */
export function parallelInputSchema(active: readonly AnyToolDefinition[]) {
  const declarations: Record<string, z.ZodOptional<typeof trivialDeclarationSchema>> = {};
  for (const tool of active) {
    declarations[declarationKey(tool.name)] = trivialDeclarationSchema
      .optional()
      .describe(`${tool.title} (\`${tool.name}\`): ${tool.description}`);
  }
  return z
    .object({
      prTitle: z.string().trim().min(1).max(500).optional().describe('Pull-request style title of the change.'),
      prDescription: z.string().max(20_000).optional().describe('What the change does and why.'),
      trivialChangeDeclaration: z
        .object(declarations)
        .strict()
        .optional()
        .describe(
          'Per validator, whether this change is trivial for it. Always recorded; a validator is skipped only when `validation.skipTrivial` lists it. Logging, error-message, CI and configuration changes are never trivial for static analysis.',
        ),
    })
    .strict();
}
export type ParallelInput = z.output<ReturnType<typeof parallelInputSchema>>;

/** The declarations of a parsed input, by tool name. */
export function declarationsByTool(
  active: readonly AnyToolDefinition[],
  input: ParallelInput,
): Map<string, TrivialDeclaration> {
  const byTool = new Map<string, TrivialDeclaration>();
  const given = (input.trivialChangeDeclaration ?? {}) as Record<string, TrivialDeclaration | undefined>;
  for (const tool of active) {
    const declaration = given[declarationKey(tool.name)];
    if (declaration) byTool.set(tool.name, declaration);
  }
  return byTool;
}

/**
 * The arguments one wrapped tool gets: only the fields its own input schema has (a tool with a strict empty input,
 * like `checks`, gets `{}`), with its own declaration as `trivialChangeDeclaration`.
 */
export function argumentsForTool(
  tool: AnyToolDefinition,
  input: ParallelInput,
  declarations: ReadonlyMap<string, TrivialDeclaration>,
): Record<string, unknown> {
  const shape = (tool.inputSchema as { shape?: Record<string, unknown> }).shape ?? {};
  const args: Record<string, unknown> = {};
  if ('prTitle' in shape && input.prTitle !== undefined) args.prTitle = input.prTitle;
  if ('prDescription' in shape && input.prDescription !== undefined) args.prDescription = input.prDescription;
  const declaration = declarations.get(tool.name);
  if ('trivialChangeDeclaration' in shape && declaration) args.trivialChangeDeclaration = declaration;
  return args;
}

/** `validation.skipTrivial` lists the tool and the agent declared the change trivial for it. */
export function maySkipAsTrivial(
  tool: AnyToolDefinition,
  skipTrivial: readonly string[],
  declarations: ReadonlyMap<string, TrivialDeclaration>,
): boolean {
  return skipTrivial.includes(tool.name) && declarations.get(tool.name)?.isTrivial === true;
}
