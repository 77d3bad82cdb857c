import { z } from 'zod';
import { TollgateError } from '../core/errors.js';
import { REPORT_FORMATS } from '../report/index.js';

/** `outputFile` → `--output-file`, for messages that name the flag the user typed. */
function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/**
 * Validates a command's parsed flags with zod and turns the first problem into the one-line usage error
 * `--format: expected one of markdown, json, sarif; got "xml"`.
 */
export function parseFlags<Schema extends z.ZodType>(schema: Schema, flags: unknown): z.output<Schema> {
  // Once per process: zod's compiled fast path (generated code V8 compiles) costs more than it saves here.
  const parsed = schema.safeParse(flags, { jitless: true });
  if (parsed.success) return parsed.data;
  const messages = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const value =
      key && typeof flags === 'object' && flags !== null ? (flags as Record<string, unknown>)[key] : undefined;
    return `${flagName(key)}: ${describeIssue(issue, value)}`;
  });
  throw new TollgateError('usage', messages[0]!, messages.slice(1));
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'invalid_value') {
    return `expected one of ${issue.values.map(String).join(', ')}; got ${JSON.stringify(value)}`;
  }
  return `${issue.message}${value === undefined ? '' : `; got ${JSON.stringify(value)}`}`;
}

/** Comma-separated or repeated list flags (`--only checks,secrets --only code_review`). */
export function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ];
}

export const formatFlag = z.enum(REPORT_FORMATS);
