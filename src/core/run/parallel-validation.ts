import type { AnyToolDefinition } from '../pipeline/tool.js';
import { argumentsForTool, declarationKey, declarationsByTool, parallelInputSchema } from './trivial-declarations.js';
import {
  PARALLEL_VALIDATION,
  runValidationCall,
  type ValidationCallOptions,
  type ValidationCallOutcome,
} from './validation-call.js';
import { renderValidationResults } from './validation-results.js';

export { PARALLEL_VALIDATION } from './validation-call.js';

export interface ParallelValidationOptions
  extends Omit<ValidationCallOptions, 'callName' | 'calls' | 'declarations' | 'complete'> {
  /** The validators it wraps (two or more). */
  active: readonly AnyToolDefinition[];
  /** The call's raw arguments, validated here. */
  input: unknown;
}

/**
 * `parallel_validation`: the wrapper an agent calls when two or more validators are active. Validates its input
 * (a bad field is `invalid_input` naming the field's path), gives each wrapped tool only the fields its own input
 * takes, and runs them all as one validation call.
 */
export async function runParallelValidation(options: ParallelValidationOptions): Promise<ValidationCallOutcome> {
  const parsed = parallelInputSchema(options.active).safeParse(options.input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
    const known = options.active.map((tool) => declarationKey(tool.name)).join(', ');
    const hint =
      where === 'trivialChangeDeclaration' && issue?.code === 'unrecognized_keys'
        ? ` (declaration keys: ${known})`
        : '';
    const summary = `${PARALLEL_VALIDATION} input ${where}: ${issue?.message ?? 'invalid'}${hint}`;
    return {
      status: 'invalid_input',
      summary,
      runId: null,
      fingerprint: null,
      tools: [],
      text: renderValidationResults({
        callName: PARALLEL_VALIDATION,
        status: 'invalid_input',
        message: `${summary}\n`,
        tools: [],
        maxOutputLines: options.config.output.maxOutputLines,
      }),
    };
  }
  const declarations = declarationsByTool(options.active, parsed.data);
  const { active, input: _input, ...rest } = options;
  return runValidationCall({
    ...rest,
    callName: PARALLEL_VALIDATION,
    calls: active.map((tool) => ({ tool, arguments: argumentsForTool(tool, parsed.data, declarations) })),
    declarations,
    complete: true,
  });
}
