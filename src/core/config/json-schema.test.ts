import { describe, expect, test } from 'vitest';
import { registriesWith } from '../../../test/support/registries.js';
import { validators } from '../../validators/index.js';
import { configJsonSchema, renderConfigJsonSchema } from './json-schema.js';

describe('tollgate config schema', () => {
  test('matches test/fixtures/config/schema.json (after a deliberate change: npx vitest run src/core/config/json-schema.test.ts -u)', async () => {
    await expect(renderConfigJsonSchema(registriesWith(validators))).toMatchFileSnapshot(
      '../../../test/fixtures/config/schema.json',
    );
  });

  test('describes durations as users write them, with defaults in the same form', () => {
    const schema = configJsonSchema(registriesWith(validators)) as {
      properties: { validation: { properties: Record<string, { default?: unknown; anyOf?: unknown[] }> } };
    };
    const { timeout, maxFileSize } = schema.properties.validation.properties;
    expect(timeout?.default).toBe('10m');
    expect(timeout?.anyOf).toEqual([
      { type: 'string', pattern: '^\\s*(?:\\d+(?:\\.\\d+)?(?:ms|s|m|h))+\\s*$' },
      { type: 'number', exclusiveMinimum: 0 },
    ]);
    expect(maxFileSize?.default).toBe('1MB');
  });

  test('the duration pattern accepts exactly what the config parser accepts', async () => {
    const { parseDuration } = await import('./units.js');
    const schema = configJsonSchema(registriesWith(validators)) as {
      properties: { validation: { properties: { timeout: { anyOf: [{ pattern: string }] } } } };
    };
    const pattern = new RegExp(schema.properties.validation.properties.timeout.anyOf[0].pattern);
    for (const text of ['90s', '1h30m', '250ms', ' 10m ', '1.5s', 'fast', '10', '10 m', 'm', '']) {
      expect(pattern.test(text), text).toBe(parseDuration(text) !== null);
    }
  });
});
