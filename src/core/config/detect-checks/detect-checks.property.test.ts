import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DETECTION_FILES, detectChecks } from './detect-checks.js';

/** Text that looks enough like each format to reach past its first parse. */
const json = fc.oneof(
  fc.string(),
  fc.json(),
  fc
    .dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.constant(null)))
    .map((scripts) => JSON.stringify({ scripts })),
  fc.anything().map((value) => JSON.stringify({ scripts: value }) ?? ''),
);
const tomlLine = fc.oneof(
  fc.string(),
  fc.constantFrom('[tool.pytest.ini_options]', '[tool.ruff]', '[tool.mypy]', '[tool.poetry]', '[dependency-groups]'),
  fc.tuple(fc.stringMatching(/^[a-z-]{1,8}$/), fc.string()).map(([key, value]) => `${key} = ${JSON.stringify(value)}`),
  fc.string().map((value) => `dev = [${JSON.stringify(value)}]`),
);
const toml = fc.array(tomlLine, { maxLength: 8 }).map((lines) => lines.join('\n'));
const anyText = fc.oneof(
  fc.string(),
  fc.array(fc.string(), { maxLength: 6 }).map((lines) => lines.join('\n')),
);

describe('detectChecks never throws', () => {
  test('on arbitrary package.json and pyproject.toml text', () => {
    fc.assert(
      fc.property(json, toml, (packageJson, pyproject) => {
        const found = detectChecks(
          new Map([
            ['package.json', packageJson],
            ['pyproject.toml', pyproject],
          ]),
        );
        for (const check of found.checks) {
          expect(check.name).not.toBe('');
          expect(check.run).not.toBe('');
        }
      }),
      { numRuns: 300 },
    );
  });

  test('on arbitrary text in every file it reads', () => {
    const names = [...DETECTION_FILES.read, ...DETECTION_FILES.present];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), anyText), (files) => {
        const found = detectChecks(new Map(Object.entries(files)));
        expect(new Set(found.checks.map((check) => check.name)).size).toBe(found.checks.length);
      }),
      { numRuns: 300 },
    );
  });
});
