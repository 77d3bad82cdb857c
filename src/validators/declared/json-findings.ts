import { z } from 'zod';
import { describeValue } from '../../core/config/describe-value.js';
import { SEVERITIES } from '../../core/finding.js';

/**
 * What a declared validator with `format: json` prints on stdout: `{"findings": [...]}`, each finding naming its
 * rule, severity and message, and where it is (`file`, repository-relative, and `line`, 1-based) when it is about a
 * place. Unknown fields are refused, so a misspelt `severity` is an error rather than a finding silently dropped.
 */
const declaredFindingSchema = z
  .object({
    rule: z.string().min(1),
    severity: z.enum(SEVERITIES),
    message: z.string().min(1),
    file: z.string().min(1).optional(),
    line: z.number().int().min(1).optional(),
    column: z.number().int().min(1).optional(),
  })
  .strict();

export const declaredOutputSchema = z.object({ findings: z.array(declaredFindingSchema) }).strict();

export type DeclaredFinding = z.output<typeof declaredFindingSchema>;

export type DeclaredOutputParse = { ok: true; findings: DeclaredFinding[] } | { ok: false; problem: string };

/** Parses the command's stdout; a problem is one line naming the field (`findings[2].severity`) and what is wrong. */
export function parseDeclaredOutput(stdout: string): DeclaredOutputParse {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      ok: false,
      problem:
        stdout.trim() === '' ? 'printed nothing; expected {"findings": [...]}' : `stdout is not JSON (${reason})`,
    };
  }
  const parsed = declaredOutputSchema.safeParse(value);
  if (parsed.success) return { ok: true, findings: parsed.data.findings };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: `${fieldOf(issue.path)}: ${messageOf(issue, value)}` };
}

function fieldOf(path: readonly PropertyKey[]): string {
  let field = 'output';
  for (const part of path) field += typeof part === 'number' ? `[${part}]` : `.${String(part)}`;
  return field.replace(/^output\./, '');
}

function messageOf(issue: z.core.$ZodIssue, root: unknown): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown field(s) ${issue.keys.join(', ')}; expected rule, severity, message, file, line, column`;
  const got = describeValue(valueAt(root, issue.path));
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.join(', ')}, got ${got}`;
  return `${issue.message.replace(/^Invalid input: /, '')}, got ${got}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}
