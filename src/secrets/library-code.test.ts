import { describe, expect, test } from 'vitest';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken } from './sample-tokens.js';
import { scanTargets } from './scan-targets.js';
import { SecretScanner } from './scanner.js';
import { sourceMapParts } from './source-map.js';

const token = fakeChecksumToken('ghp_', 'source-map');
const scanner = new SecretScanner(builtinRules);

async function scan(path: string, text: string) {
  const outcome = await scanTargets([{ path, read: async () => Buffer.from(text) }], { scanner });
  return outcome.findings.map((finding) => `${finding.path}:${finding.line} ${finding.ruleId}`);
}

describe('source maps', () => {
  const map = (sourcesContent: Array<string | null>, extra: object = {}) =>
    JSON.stringify({
      version: 3,
      sources: ['src/api.ts', 'src/util.ts'],
      names: ['aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7', 'sk_live_looksLikeAKeyButIsAName0123456789'],
      mappings: 'AAAA,SAASA,EAAE,CAAC;AACb,OAAO,CAAC,GAAG,CAAC,gBAAgB,CAAC,CAAC',
      sourcesContent,
      ...extra,
    });

  test('a secret in an embedded source is reported inside that source, at its own line', async () => {
    const text = map([`export const a = 1;\nconst token = "${token}";\n`, 'export {};\n']);
    expect(await scan('dist/bundle.js.map', text)).toEqual(['dist/bundle.js.map!src/api.ts:2 github-pat']);
  });

  test('names and mappings are never scanned; a map without sourcesContent yields nothing', async () => {
    expect(await scan('dist/bundle.js.map', map([null, null]))).toEqual([]);
    expect(sourceMapParts('dist/bundle.js.map', map([]))).toEqual([]);
  });

  test('a map with non-ASCII text, read from its bytes, reports inside its sources as decoded', async () => {
    // Over 50 blocks of 4 KB with non-ASCII bytes in one: the file is read a byte per character.
    const padding = `${'export const x = 1;\n'.repeat(16_000)}`;
    const text = map([`// caf\u00e9 \u{1f511}\nconst token = "${token}";\n`, padding]).replace(
      '"src/api.ts"',
      '"src/\\u00e9t\u00e9.ts"',
    );
    expect(await scan('dist/bundle.js.map', text)).toEqual(['dist/bundle.js.map!src/\u00e9t\u00e9.ts:2 github-pat']);
    expect(await scan('keys.map', `// caf\u00e9\ntoken = "${token}"\n${padding}`)).toEqual(['keys.map:2 github-pat']);
    // Dense non-ASCII text: a map is read from its bytes whatever the density, other files are decoded.
    const dense = map([`// \u00e9\u00e9\u00e9 \u{1f511}\nconst token = "${token}";\n`, null]);
    expect(await scan('dist/b.js.map', dense)).toEqual(['dist/b.js.map!src/api.ts:2 github-pat']);
    expect(await scan('keys.map', `// \u00e9\u00e9\ntoken = "${token}"\n`)).toEqual(['keys.map:2 github-pat']);
  });

  test('a .map file that is not a source map, and a source map under another name, are scanned as text', async () => {
    expect(sourceMapParts('keys.map', `token = "${token}"`)).toBeNull();
    expect(sourceMapParts('roads.map', '{"version": 2}')).toBeNull();
    expect(await scan('keys.map', `token = "${token}"\n`)).toEqual(['keys.map:1 github-pat']);
  });
});

describe('API documentation examples', () => {
  test('name-based rules and JWTs skip *.examples.json; provider formats are still reported there', async () => {
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from('{"sub":"docs-example-user","n":7}').toString('base64url')}.aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f`;
    const text = `{"input": {"Password": "Tr0ub4dor&3xample!", "IdToken": "${jwt}", "Token": "${token}"}}\n`;
    expect(await scan('apis/cognito-2016-04-18.examples.json', text)).toEqual([
      'apis/cognito-2016-04-18.examples.json:1 github-pat',
    ]);
    expect((await scan('apis/cognito.json', text)).length).toBeGreaterThan(1);
  });
});
