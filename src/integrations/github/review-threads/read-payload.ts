import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { z } from 'zod';
import { errorMessage, TollgateError } from '../../../core/errors.js';

/** `threads[2].threadId` from a zod or our own path. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(top level)';
}

/**
 * Reads an agent-written payload and validates its shape. Every problem is reported in one usage error, each line
 * naming the file, the field and what would be valid: `fix.json items[0].classification: expected one of …`.
 */
export async function readPayloadFile<Schema extends z.ZodType>(options: {
  file: string;
  cwd: string;
  schema: Schema;
  /** The flag that named the file, for messages. */
  flag: string;
}): Promise<{ value: z.output<Schema>; label: string }> {
  const absolute = isAbsolute(options.file) ? options.file : resolve(options.cwd, options.file);
  const label = isAbsolute(options.file) ? options.file : relative(options.cwd, absolute) || options.file;
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : errorMessage(error);
    throw new TollgateError('usage', `${options.flag} ${label}: could not read: ${why}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TollgateError('usage', `${label}: not valid JSON (${errorMessage(error)})`);
  }
  const parsed = options.schema.safeParse(json);
  if (parsed.success) return { value: parsed.data, label };
  const problems = parsed.error.issues.map((issue) => `${label} ${fieldPath(issue.path)}: ${describeIssue(issue)}`);
  throw new TollgateError('usage', problems[0]!, problems.slice(1));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}`;
    default:
      return issue.message;
  }
}
