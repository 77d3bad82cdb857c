import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { PAYLOAD_SCHEMA_FILES, payloadJsonSchemaText } from './payload-schemas.js';

const repoRoot = new URL('../../../../', import.meta.url);

describe('the shipped payload JSON Schemas', () => {
  test.each(Object.entries(PAYLOAD_SCHEMA_FILES))(
    '%s equals z.toJSONSchema of its zod schema (after a deliberate change: UPDATE_PAYLOAD_SCHEMAS=1 npx vitest run src/integrations/github/review-threads/payload-schemas.test.ts)',
    async (file, schema) => {
      const expected = payloadJsonSchemaText(schema);
      if (process.env.UPDATE_PAYLOAD_SCHEMAS === '1') await writeFile(new URL(file, repoRoot), expected);
      expect(await readFile(new URL(file, repoRoot), 'utf8')).toBe(expected);
    },
  );
});
