import type { z } from 'zod';
import { durationSchema, sizeSchema } from './duration.js';
import { formatDuration, formatSize } from './units.js';

/**
 * Walks the composed config schema alongside a value. Which paths exist, which keys an object allows and which
 * numbers are durations are all read from the schema, so nothing here repeats a field list.
 */

export type ConfigPath = readonly (string | number)[];

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; valueType?: z.ZodType };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional']);

/** Strips wrappers that do not change what a value is (defaults, optional). Stops at a pipe: a transform such as
 * `durationSchema` is a type of its own. */
function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let def = defOf(current); WRAPPERS.has(def.type) && def.innerType; def = defOf(current)) current = def.innerType;
  return current;
}

/** Like `unwrapSchema`, and also looks through pipes to what the user writes. */
function unwrapToInput(schema: z.ZodType): z.ZodType {
  let current = unwrapSchema(schema);
  for (let def = defOf(current); def.type === 'pipe' && def.in; def = defOf(current)) current = unwrapSchema(def.in);
  return current;
}

/** The keys of an object schema, or null when the schema is not an object. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const inner = unwrapToInput(schema);
  if (defOf(inner).type !== 'object') return null;
  return (inner as z.ZodObject).shape as Record<string, z.ZodType>;
}

/** The schema that validates the value at `path`, if the schema has one there. */
export function schemaAt(schema: z.ZodType, path: ConfigPath): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const segment of path) {
    if (!current) return undefined;
    const inner = unwrapToInput(current);
    const def = defOf(inner);
    if (def.type === 'object') current = objectShape(inner)?.[String(segment)];
    else if (def.type === 'array') current = def.element;
    else if (def.type === 'record') current = def.valueType;
    else return undefined;
  }
  return current;
}

export interface ConfigLeaf {
  /** Dotted path (`validation.checks.enabled`, `checks`): the key of `LoadedConfig.sources`. */
  key: string;
  path: readonly string[];
  /** The effective value; undefined for an optional setting left unset. */
  value: unknown;
}

/**
 * Every setting of the config, in schema order: objects are walked into, anything else (lists, maps, scalars) is one
 * setting. Unset optional settings are listed too, so `config show` can say they are not set.
 */
export function configLeaves(schema: z.ZodType, value: unknown, path: readonly string[] = []): ConfigLeaf[] {
  const shape = objectShape(schema);
  if (!shape) return [{ key: path.join('.'), path, value }];
  const record = isPlainObject(value) ? value : {};
  return Object.entries(shape).flatMap(([key, child]) => configLeaves(child, record[key], [...path, key]));
}

/**
 * A parsed value back in the form a user writes it: durations as "10m", sizes as "1MB". Used for `config show` and
 * for the defaults in the JSON Schema (which describes what users write, not the milliseconds tollgate uses).
 */
export function toWrittenForm(schema: z.ZodType, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  const inner = unwrapSchema(schema);
  if (inner === durationSchema) return typeof value === 'number' ? formatDuration(value) : value;
  if (inner === sizeSchema) return typeof value === 'number' ? formatSize(value) : value;
  const def = defOf(inner);
  if (def.type === 'object' && isPlainObject(value)) {
    const shape = objectShape(inner) ?? {};
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, shape[key] ? toWrittenForm(shape[key], item) : item]),
    );
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.map((item) => toWrittenForm(element, item));
  }
  if (def.type === 'record' && def.valueType && isPlainObject(value)) {
    const valueType = def.valueType;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toWrittenForm(valueType, item)]));
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

/** `checks[1].timeout`, `validation.checks.enabled`: how messages name a place in the config. */
export function formatConfigPath(path: ConfigPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}
