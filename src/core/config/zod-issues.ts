import type { z } from 'zod';
import { describeValue } from './describe-value.js';
import { didYouMean } from './did-you-mean.js';
import { type ConfigPath, formatConfigPath, objectShape, schemaAt } from './schema-walk.js';
import { isSensitiveKey } from './sensitive-keys.js';
import type { ConfigProblem, YamlSource } from './yaml-source.js';

/**
 * Turns zod's issues into config problems with a position and plain words. Zod 4's own messages
 * ("Invalid input: expected string, received number") name types the user never wrote; these say what to write.
 */
export function issueProblems(
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodType,
  source: Pick<YamlSource, 'locate'>,
): ConfigProblem[] {
  return issues.flatMap((issue) => {
    const path = issue.path as (string | number)[];
    if (issue.code === 'unrecognized_keys') {
      const allowed = Object.keys(objectShape(schemaAt(schema, path) ?? schema) ?? {});
      return issue.keys.map((key) => ({
        ...source.locate([...path, key], 'key'),
        message: withPath(path, unknownKey(key, allowed)),
      }));
    }
    if (issue.code === 'invalid_type' && issue.input === undefined) {
      // A required key that is missing: report it on the mapping that should hold it.
      const parent = path.slice(0, -1);
      const key = path[path.length - 1];
      return [
        {
          ...source.locate(parent),
          message: withPath(parent, `missing required key ${JSON.stringify(key)} (${expectedNoun(issue.expected)})`),
        },
      ];
    }
    // The key the value sits under decides (`checks[0].env.NPM_TOKEN`), not a section's name: `secrets.rules[0]
    // .pattern` is a pattern, and hiding it would leave "invalid a string" with nothing to fix.
    const key = path.filter((part) => typeof part === 'string').at(-1);
    const message = key !== undefined && isSensitiveKey(key) ? describeHiddenIssue(issue) : describeIssue(issue);
    return [{ ...source.locate(path), message: withPath(path, message) }];
  });
}

function withPath(path: ConfigPath, message: string): string {
  return path.length === 0 ? message : `${formatConfigPath(path)}: ${message}`;
}

function unknownKey(key: string, allowed: readonly string[]): string {
  const suggestion = didYouMean(key, allowed);
  if (suggestion) return `unknown key ${JSON.stringify(key)} (did you mean ${JSON.stringify(suggestion)}?)`;
  if (allowed.length === 0) return `unknown key ${JSON.stringify(key)}`;
  return `unknown key ${JSON.stringify(key)} (expected one of ${allowed.map((name) => JSON.stringify(name)).join(', ')})`;
}

/** What was wrong with one value, without its path. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const got = describeValue(issue.input);
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${expectedNoun(issue.expected)}, got ${got}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `expected ${quote(issue.values[0])}, got ${got}`
        : `expected one of ${issue.values.map(quote).join(', ')}; got ${got}`;
    case 'too_small':
      return `expected ${bound(issue.origin, 'at least', 'more than', issue.minimum, issue.inclusive)}, got ${size(issue.origin, issue.input)}`;
    case 'too_big':
      return `expected ${bound(issue.origin, 'at most', 'less than', issue.maximum, issue.inclusive)}, got ${size(issue.origin, issue.input)}`;
    case 'invalid_format':
      return `expected a string ${issue.pattern ? `matching /${issue.pattern}/` : `in ${issue.format} format`}, got ${got}`;
    case 'not_multiple_of':
      return `expected a multiple of ${issue.divisor}, got ${got}`;
    case 'invalid_union':
      // A union may carry its own message (durations and sizes do); zod's default one is just "Invalid input".
      if (issue.message !== 'Invalid input') return issue.message;
      return `expected ${unionNouns(issue)}, got ${got}`;
    case 'invalid_key':
      return `key ${describeValue(issue.input)}: ${issue.issues.map(describeIssue).join('; ')}`;
    case 'invalid_element':
      return issue.issues.map(describeIssue).join('; ');
    default:
      // custom: the schema's own message already says it all (durations, duplicate check names).
      return issue.message;
  }
}

/** For a value under a credential-like key: what kind of value was wrong, never the value itself. */
function describeHiddenIssue(issue: z.core.$ZodIssue): string {
  const kind = kindOf(issue.input);
  // A schema's own message (a rule pattern that would backtrack) is shown unless it quotes the value.
  if (issue.code === 'custom' && (issue.input === undefined || !issue.message.includes(String(issue.input)))) {
    return issue.message;
  }
  const hidden = '(value not shown: the key looks like a credential)';
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${expectedNoun(issue.expected)}, got ${kind} (value not shown)`;
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? quote(issue.values[0]) : `one of ${issue.values.map(quote).join(', ')}`}, got ${kind} ${hidden}`;
    case 'too_small':
    case 'too_big':
    case 'not_multiple_of':
      // The bound and the length say what is wrong; neither gives the value away.
      return `${describeIssue(issue).replace(/, got .*$/, '')}, got ${issue.code === 'not_multiple_of' ? kind : size(issue.origin, issue.input)} ${hidden}`;
    case 'invalid_format':
      return `expected a string ${issue.pattern ? `matching /${issue.pattern}/` : `in ${issue.format} format`}, got another ${hidden}`;
    default: {
      // A schema's own message (a regular expression that does not compile) with the value cut out of it.
      const value = typeof issue.input === 'string' && issue.input.length > 0 ? issue.input : undefined;
      const message = value ? issue.message.split(value).join('…') : issue.message;
      return message === 'Invalid input' ? `invalid ${kind} ${hidden}` : `${message} ${hidden}`;
    }
  }
}

function kindOf(value: unknown): string {
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'true or false';
  return describeValue(value);
}

const NOUNS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
  map: 'a mapping',
  null: 'an empty value',
  nan: 'a number',
};

function expectedNoun(expected: string): string {
  return NOUNS[expected] ?? `a ${expected}`;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function bound(origin: string, inclusive: string, exclusive: string, limit: number | bigint, isInclusive?: boolean) {
  const words = isInclusive === false ? exclusive : inclusive;
  switch (origin) {
    case 'string':
      if (limit === 1 && words === 'at least') return 'a non-empty string';
      return `${words} ${limit} characters`;
    case 'array':
    case 'set':
      if (limit === 1 && words === 'at least') return 'a non-empty list';
      return `${words} ${limit} items`;
    default:
      return `${words} ${limit}`;
  }
}

function size(origin: string, input: unknown): string {
  if ((origin === 'array' || origin === 'set') && Array.isArray(input)) {
    return input.length === 0 ? 'an empty list' : `${input.length} items`;
  }
  return describeValue(input);
}

/** "a string or a number", when every branch failed on the type; otherwise what the first branch wanted. */
function unionNouns(issue: z.core.$ZodIssue & { code: 'invalid_union' }): string {
  const nouns = issue.errors.flatMap((branch) =>
    branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0
      ? [expectedNoun(branch[0]!.expected)]
      : [],
  );
  if (nouns.length > 0 && nouns.length === issue.errors.length) return [...new Set(nouns)].join(' or ');
  return 'one of the allowed forms';
}
