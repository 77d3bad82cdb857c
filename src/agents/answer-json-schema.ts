import { z } from 'zod';

/**
 * The JSON Schema an agent CLI constrains its answer with (Claude `--json-schema`, Codex `--output-schema`), derived
 * from the zod declaration of that answer, so the two cannot drift apart. Kept to what OpenAI's strict mode reads: no
 * `$schema`, no safe-integer bounds zod puts on every integer, and `type: [T, "null"]` for a nullable T.
 */
export function answerJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    override: ({ jsonSchema: node }) => tidy(node as Record<string, unknown>),
  }) as Record<string, unknown>;
  return jsonSchema;
}

function tidy(node: Record<string, unknown>): void {
  if (node.type === 'integer') {
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  }
  const anyOf = node.anyOf as Record<string, unknown>[] | undefined;
  if (anyOf?.length !== 2) return;
  // Children may come after their parent here: tidy them first (it is idempotent).
  for (const branch of anyOf) tidy(branch);
  const nonNull = anyOf.filter((branch) => branch.type !== 'null');
  const plain = nonNull[0];
  if (nonNull.length !== 1 || !plain || typeof plain.type !== 'string' || Object.keys(plain).length !== 1) return;
  delete node.anyOf;
  node.type = [plain.type, 'null'];
}
