import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TollgateError } from '../core/errors.js';
import { importedSuppressionFor, NO_IMPORTED_SUPPRESSIONS } from './imported-match.js';
import { parseGitleaksIgnore, parseSecretlintAllows } from './imported-suppressions.js';

const commit = 'a'.repeat(40);

describe('.gitleaksignore', () => {
  test('reads directory and git fingerprints, comments and blank lines, and paths with colons', () => {
    const places = parseGitleaksIgnore(
      `# accepted in review\n\nconfig/app.env:generic-api-key:3\n${commit}:src/a:b.ts:github-pat:12\n./x.env:aws-access-token:1\n`,
      '.gitleaksignore',
    );
    expect(places).toEqual([
      { path: 'config/app.env', ruleId: 'generic-api-key', line: 3, source: '.gitleaksignore:3' },
      { path: 'src/a:b.ts', ruleId: 'github-pat', line: 12, commit, source: '.gitleaksignore:4' },
      { path: 'x.env', ruleId: 'aws-access-token', line: 1, source: '.gitleaksignore:5' },
    ]);
  });

  test('a malformed line is a config error naming file:line and the expected form', () => {
    for (const bad of ['just-a-path', 'a.env:rule:zero', 'a.env:rule:0', ':1']) {
      expect(() => parseGitleaksIgnore(`ok.env:r:1\n${bad}\n`, '.gitleaksignore')).toThrow(
        /^\.gitleaksignore:2: not a gitleaks fingerprint; expected "file:rule-id:line"/,
      );
    }
  });

  test('any fingerprint gitleaks could write parses back to its parts (property)', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_./-]{1,12}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        fc.stringMatching(/^[a-z0-9-]{1,20}$/),
        fc.integer({ min: 1, max: 1e6 }),
        fc.option(fc.stringMatching(/^[0-9a-f]{40}$/), { nil: undefined }),
        (pathParts, ruleId, line, sha) => {
          const path = pathParts.join(':').replace(/^\.\//, '');
          fc.pre(!path.startsWith('./') && !/^[0-9a-f]{7,64}$/i.test(pathParts[0]!));
          const text = `${sha ? `${sha}:` : ''}${path}:${ruleId}:${line}`;
          const [place] = parseGitleaksIgnore(text, 'f');
          expect(place).toMatchObject({ path, ruleId, line, ...(sha ? { commit: sha } : {}) });
        },
      ),
    );
  });

  test('an entry clears the finding at its file and line; one with a commit only that commit’s', () => {
    const places = new Map([
      [
        'a.env',
        [
          { line: 2, ruleId: 'generic-api-key', source: '.gitleaksignore:1' },
          { line: 5, ruleId: 'github-pat', commit, source: '.gitleaksignore:2' },
        ],
      ],
    ]);
    const imported = { ...NO_IMPORTED_SUPPRESSIONS, places };
    const at = (line: number, sha?: string) =>
      importedSuppressionFor(imported, { path: 'a.env', line, commit: sha, secret: 'x' });
    expect(at(2)).toEqual({ source: '.gitleaksignore:1', reason: 'gitleaks rule generic-api-key' });
    expect(at(3)).toBeUndefined();
    expect(at(5)).toBeUndefined();
    expect(at(5, 'b'.repeat(40))).toBeUndefined();
    expect(at(5, commit)?.source).toBe('.gitleaksignore:2');
  });
});

describe('secretlint allows', () => {
  const config = JSON.stringify({
    rules: [
      {
        id: '@secretlint/secretlint-rule-preset-recommend',
        rules: [{ id: '@secretlint/secretlint-rule-aws', options: { allows: ['/^AKIA[A-Z0-9]+EXAMPLE$/i'] } }],
      },
      { id: '@secretlint/secretlint-rule-pattern', options: { allows: ['dummy-value'], patterns: [] } },
    ],
  });

  test('allows from presets and rules: /regex/flags as patterns, anything else as a literal found anywhere', () => {
    const allows = parseSecretlintAllows(config, '.secretlintrc.json', []);
    const imported = { ...NO_IMPORTED_SUPPRESSIONS, allows };
    const match = (secret: string) => importedSuppressionFor(imported, { path: 'p', line: 1, secret });
    expect(match('akiaABCDEFGHEXAMPLE')?.source).toBe(
      '.secretlintrc.json rules[0].rules[0].options.allows[0] "/^AKIA[A-Z0-9]+EXAMPLE$/i"',
    );
    expect(match('prefix-dummy-value-suffix')?.reason).toBe('secretlint allows');
    expect(match('AKIAABCDEFGH')).toBeUndefined();
  });

  test('YAML and JSON with comments are read; a JavaScript-only setting is noted, not guessed', () => {
    const yaml = 'rules:\n  - id: x\n    options:\n      allows: ["/^test-/"]\n';
    expect(parseSecretlintAllows(yaml, '.secretlintrc.yaml', [])).toHaveLength(1);
    expect(parseSecretlintAllows('{ // note\n "rules": [], }', '.secretlintrc.json', [])).toEqual([]);
  });

  test('bad files are config errors naming the file and what is wrong', () => {
    const error = (text: string) => {
      try {
        parseSecretlintAllows(text, '.secretlintrc.json', []);
      } catch (caught) {
        expect(caught).toBeInstanceOf(TollgateError);
        return (caught as Error).message;
      }
      throw new Error('no error');
    };
    expect(error('{ "rules": [ }')).toMatch(/^\.secretlintrc\.json:1: not valid JSON/);
    expect(error('{ "rules": {} }')).toMatch(/^\.secretlintrc\.json: rules: /);
    expect(error('{"rules":[{"options":{"allows":["/(a/"]}}]}')).toMatch(
      /^\.secretlintrc\.json rules\[0\]\.options\.allows\[0\]: not a valid regular expression/,
    );
    expect(error('{"rules":[{"options":{"allows":["/(a+)+$/"]}}]}')).toMatch(/super-linear/);
  });
});
