import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { registriesWith } from '../../../test/support/registries.js';
import { validators } from '../../validators/index.js';
import { TollgateError } from '../errors.js';
import { parseConfigText } from './load.js';
import { buildConfigSchema } from './schema.js';

const schema = buildConfigSchema(registriesWith(validators));
const load = (text: string) =>
  parseConfigText({ text, file: 'tollgate.config.yaml', env: {}, registries: registriesWith(validators) });

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
const text = fc.string({ minLength: 1, maxLength: 20 });
const duration = fc.oneof(
  fc.integer({ min: 1, max: 7200 }),
  fc.integer({ min: 1, max: 120 }).map((n) => `${n}s`),
  fc.integer({ min: 1, max: 90 }).map((n) => `${n}m`),
  fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 59 })).map(([h, m]) => `${h}h${m}m`),
);
const decision = fc.constantFrom('allow', 'deny');

const check = fc.record(
  {
    name,
    run: text,
    paths: fc.array(text, { maxLength: 3 }),
    timeout: duration,
    env: fc.dictionary(fc.stringMatching(/^[A-Z_]{1,8}$/), fc.string({ maxLength: 10 }), { maxKeys: 2 }),
    cwd: text,
  },
  { requiredKeys: ['name', 'run'] },
);

/** Random valid configs, as a user could write them (durations as text or seconds, sections partly filled in). */
const validConfig = fc.record(
  {
    base: text,
    ignore: fc.array(text, { maxLength: 3 }),
    permissions: fc.record(
      { runCommands: decision, spawnAgents: decision, network: decision, writeFiles: decision },
      { requiredKeys: [] },
    ),
    output: fc.record(
      {
        format: fc.constantFrom('markdown', 'json', 'sarif'),
        file: text,
        maxOutputLines: fc.integer({ min: 1, max: 500 }),
      },
      { requiredKeys: [] },
    ),
    validation: fc.record(
      {
        timeout: duration,
        concurrency: fc.integer({ min: 1, max: 64 }),
        maxFileSize: fc.oneof(fc.integer({ min: 1, max: 1e9 }), fc.constantFrom('1MB', '512KiB', '2 GB')),
        checks: fc.record({ enabled: fc.boolean() }),
      },
      { requiredKeys: [] },
    ),
    checks: fc.uniqueArray(check, { selector: (entry) => entry.name, maxLength: 4 }),
  },
  { requiredKeys: [] },
);

/** Reorders every mapping's keys, so the same config is written differently. */
function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, seed));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  const rotated = entries.slice(seed % (entries.length || 1)).concat(entries.slice(0, seed % (entries.length || 1)));
  return Object.fromEntries(rotated.reverse().map(([key, item]) => [key, shuffleKeys(item, seed + 1)]));
}

describe('loadConfig on generated input', () => {
  test('a valid config written as YAML loads to what the schema makes of it, in any layout', () => {
    fc.assert(
      fc.property(validConfig, fc.nat(), fc.boolean(), (config, seed, flow) => {
        const expected = schema.parse(config);
        const block = load(stringify(config));
        const reordered = load(
          `# written another way\n${stringify(shuffleKeys(config, seed), { collectionStyle: flow ? 'flow' : 'block', indent: 4 })}`,
        );
        expect(block.config).toEqual(expected);
        expect(reordered.config).toEqual(expected);
        expect(reordered.hash).toBe(block.hash);
      }),
      { numRuns: 150 },
    );
  });

  const yamlish = fc.oneof(
    fc.string({ maxLength: 80 }),
    fc
      .array(
        fc.constantFrom(
          'checks',
          'base',
          ':',
          ' ',
          '  ',
          '\n',
          '- ',
          '[',
          ']',
          '{',
          '}',
          ',',
          '"',
          "'",
          '#',
          '&a',
          '*a',
          '!',
          '<<',
          '---',
          'timeout',
          '90s',
          'true',
          '~',
          '\t',
          '|',
          '>',
          '?',
          '%YAML 1.2',
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join('')),
    fc.anything().map((value) => stringify(value) ?? ''),
  );

  test('any text either loads or fails with a TollgateError whose lines all name the file', () => {
    fc.assert(
      fc.property(yamlish, (source) => {
        try {
          load(source);
        } catch (error) {
          if (!(error instanceof TollgateError)) throw error;
          for (const line of [error.message, ...error.details])
            expect(line).toMatch(/^tollgate\.config\.yaml:\d+:\d+ \S/);
        }
      }),
      { numRuns: 400 },
    );
  });
});
