import { z } from 'zod';
import { durationSchema } from './duration.js';
import { isPlainObject } from './schema-walk.js';

/** A declared validator's name: snake_case, as every validator's (it becomes `validation.<name>`, its MCP tool). */
const NAME_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** What a declared validator's command prints on stdout. */
export const DECLARED_OUTPUT_FORMATS = ['json', 'sarif'] as const;
export type DeclaredOutputFormat = (typeof DECLARED_OUTPUT_FORMATS)[number];

const declaredValidatorSchema = z
  .object({
    run: z
      .string()
      .min(1)
      .describe(
        'Shell command, run with `sh -c` from `cwd`; gets the changed files on stdin (one per line) and prints its findings on stdout.',
      ),
    format: z
      .enum(DECLARED_OUTPUT_FORMATS)
      .default('json')
      .describe(
        'What the command prints: `json` (`{"findings": [...]}`, see docs/validators/declared.md) or SARIF 2.1.0.',
      ),
    title: z.string().min(1).optional().describe('Shown in reports; default: the name.'),
    description: z
      .string()
      .min(1)
      .optional()
      .describe("Agent-facing: what the validator checks and when to call it (its MCP tool's description)."),
    paths: z
      .array(z.string().min(1))
      .optional()
      .describe('Glob patterns; the validator runs only when a changed file matches one. Omit to always run.'),
    timeout: durationSchema
      .default(300_000)
      .describe('Kill the whole process group after this long, e.g. "90s"; a timeout is never a pass.'),
    env: z.record(z.string(), z.string()).default({}).describe('Extra environment variables.'),
    cwd: z.string().default('.').describe('Working directory, relative to the repository root.'),
  })
  .strict();

export type DeclaredValidator = z.output<typeof declaredValidatorSchema>;

/**
 * The `validators` section: validators a project declares in its config, by name. Each becomes a validator like a
 * built-in one (its `validation.<name>` switch, `--only`, MCP tool and report section).
 */
export const declaredValidatorsSchema = z
  .record(
    z.string().regex(NAME_PATTERN, { error: 'a validator name is snake_case, like "todo_markers"' }),
    declaredValidatorSchema,
  )
  .describe(
    'Validators declared by the project: a command that prints findings as JSON or SARIF (docs/validators/declared.md).',
  )
  .prefault({});

export type DeclaredValidators = z.output<typeof declaredValidatorsSchema>;

/**
 * Names a declared validator may not take besides the built-in validators' own: the MCP server's other tools, the
 * built-ins' MCP names, and the report's section for pending policy edits.
 */
export const RESERVED_VALIDATOR_NAMES: readonly string[] = [
  'parallel_validation',
  'validation_status',
  'secret_scanning',
  'dependency_advisories',
  'policy',
];

/** The config section that holds them. */
export const DECLARED_VALIDATORS_KEY = 'validators';

/**
 * The declarations a raw config holds, read before the whole config is parsed: the schema of the rest (the
 * `validation.<name>` switches) depends on them. A section that does not parse declares nothing here; the whole
 * config's parse then reports it, with positions.
 */
export function peekDeclaredValidators(raw: Record<string, unknown>): DeclaredValidators {
  const section = raw[DECLARED_VALIDATORS_KEY];
  if (section !== undefined && !isPlainObject(section)) return {};
  const parsed = declaredValidatorsSchema.safeParse(section);
  return parsed.success ? parsed.data : {};
}
