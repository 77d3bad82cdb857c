import { z } from 'zod';
import { durationSchema, sizeSchema } from './duration.js';
import type { Registries } from './registries.js';
import { buildConfigSchema } from './schema.js';
import { toWrittenForm } from './schema-walk.js';

/** What a user may write for a duration: the same grammar `parseDuration` accepts. */
const DURATION_JSON = {
  description: 'A duration: "250ms", "90s", "10m", "1h30m", or a number of seconds.',
  anyOf: [
    { type: 'string', pattern: '^\\s*(?:\\d+(?:\\.\\d+)?(?:ms|s|m|h))+\\s*$' },
    { type: 'number', exclusiveMinimum: 0 },
  ],
};

const SIZE_JSON = {
  description: 'A size: "1MB", "512KiB", or a number of bytes.',
  anyOf: [
    { type: 'string', pattern: '^\\s*\\d+(?:\\.\\d+)?\\s*(?:[bB]|[kKmMgG][iI]?[bB])?\\s*$' },
    { type: 'number', exclusiveMinimum: 0 },
  ],
};

/**
 * The JSON Schema of `tollgate.config.yaml`, derived from the zod schema. It describes what users write (`io: 'input'`):
 * durations and sizes as text or numbers with their grammar, defaults in the same written form.
 */
export function configJsonSchema(registries: Registries): Record<string, unknown> {
  const schema = buildConfigSchema(registries);
  const jsonSchema = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const target = jsonSchema as Record<string, unknown>;
      const replacement = zodSchema === durationSchema ? DURATION_JSON : zodSchema === sizeSchema ? SIZE_JSON : null;
      if (replacement) {
        for (const key of Object.keys(target)) delete target[key];
        Object.assign(target, structuredClone(replacement));
        return;
      }
      const def = zodSchema._zod.def;
      // zod leaves out defaults of anything with a transform inside (their default is in output form, e.g. 600000 ms);
      // put them back in written form ("10m").
      if (def.type === 'default' && !('default' in target)) {
        target.default = toWrittenForm(def.innerType as z.ZodType, structuredClone(def.defaultValue));
      }
    },
  }) as Record<string, unknown>;
  const { $schema, ...rest } = jsonSchema;
  return {
    $schema,
    title: 'tollgate.config.yaml',
    description: 'tollgate configuration. Print this schema with `tollgate config schema`; see docs/config.md.',
    ...rest,
  };
}

/** `tollgate config schema` output: stable, two-space JSON with a final newline. */
export function renderConfigJsonSchema(registries: Registries): string {
  return `${JSON.stringify(configJsonSchema(registries), null, 2)}\n`;
}
