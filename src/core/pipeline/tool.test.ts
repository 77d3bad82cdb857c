import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { result } from '../result.js';
import { defineTool } from './tool.js';

const base = {
  name: 'sample',
  title: 'Sample',
  description: 'A sample validator for the options-schema type test.',
  configKey: 'sample',
  inputSchema: z.object({}).strict(),
  permissions: [],
  enabledByDefault: true,
  run: async () => result('passed', 'ok'),
} as const;

describe('a validator declaration', () => {
  test('needs an options schema that ends in .prefault(): an absent section then gets every default inside', () => {
    const options = z.object({ level: z.string().default('high') });
    const tool = defineTool({ ...base, optionsSchema: options.prefault({}) });
    expect(tool.optionsSchema.parse(undefined)).toEqual({ level: 'high' });
    // @ts-expect-error `.default({})` hands out `{}` itself, the inner defaults unapplied: the type refuses it.
    const refused = defineTool({ ...base, optionsSchema: options.default({ level: 'high' }) });
    expect(options.default({} as { level: string }).parse(undefined)).toEqual({});
    expect(refused.name).toBe('sample');
  });
});
