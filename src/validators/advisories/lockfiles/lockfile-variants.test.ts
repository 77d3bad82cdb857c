import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { OsvRecord } from '../osv/osv-record.js';
import { createOfflineSource } from '../sources/offline-osv.js';
import type { SourceIo } from '../sources/source.js';
import { LockfileError, lockfileParserFor } from './index.js';

/**
 * A lockfile spelled in a way a line reader does not know must be read (a real TOML or JSONC parser) or be
 * an error, never "no dependency was added"; uv.lock, bun.lock and deno.lock are read; an offline database without
 * the ecosystem's export does not answer "no advisory".
 */
const FIXTURES = join(import.meta.dirname, '../../../../test/fixtures/advisories');

function parse(fixture: string, as: string): string[] {
  const text = readFileSync(join(FIXTURES, 'lockfiles', fixture), 'utf8');
  return lockfileParserFor(as)!(text).map((pkg) => `${pkg.ecosystem}:${pkg.name}@${pkg.version}`);
}

describe('lockfile variants', () => {
  test.each([
    [
      'poetry.lock with `[[ package ]]`, literal strings and comments',
      'variants/spaced.poetry.lock',
      'poetry.lock',
      ['PyPI:django@3.2.0', 'PyPI:asgiref@3.3.4'],
    ],
    [
      'Cargo.lock as an inline array of tables',
      'variants/inline.Cargo.lock',
      'Cargo.lock',
      ['crates.io:smallvec@1.6.0'],
    ],
    [
      'uv.lock (index packages only: not the editable project, not git)',
      'python/uv.lock',
      'uv.lock',
      ['PyPI:asgiref@3.3.4', 'PyPI:django@3.2.0'],
    ],
    [
      'bun.lock (JSONC; workspace packages skipped)',
      'bun/bun.lock',
      'bun.lock',
      ['npm:@babel/code-frame@7.0.0', 'npm:@babel/highlight@7.25.9', 'npm:lodash@4.17.15'],
    ],
    [
      'deno.lock v4 (npm section, peer suffix dropped; jsr left out)',
      'deno/v4.deno.lock',
      'deno.lock',
      ['npm:lodash@4.17.15', 'npm:react-dom@18.2.0', 'npm:react@18.2.0'],
    ],
    ['deno.lock v3 (packages.npm)', 'deno/v3.deno.lock', 'deno.lock', ['npm:minimist@1.2.0']],
  ])('%s', (_name, fixture, as, expected) => {
    expect(parse(fixture, as)).toEqual(expected);
  });

  test.each([
    ['poetry.lock', '[[package]\nname = "x"\n', /^not valid TOML/],
    ['poetry.lock', 'package = "django==3.2.0"\n', /^not a poetry\.lock: package/],
    ['Cargo.lock', 'package = [{ name = "x" }]\n', /^not a Cargo\.lock: package\.0\.version/],
    ['uv.lock', '[[package]]\nname = "x"\nversion = 1\n', /^not a uv\.lock/],
    ['bun.lock', '{ "lockfileVersion": 1, "packages": { "x": ["x@1.0.0"] ', /^not valid JSONC/],
    ['bun.lock', '{ "lockfileVersion": 1, "packages": { "x": [1] } }', /^not a bun\.lock/],
    ['deno.lock', '{ "version": "9", "npm": {} }', /^deno\.lock version "9": tollgate reads versions 3 to 5$/],
    ['deno.lock', '{ "version": "4", "npm": { "no-version": {} } }', /^deno\.lock: npm\.no-version/],
  ])('%s with %j is a LockfileError', (as, text, message) => {
    expect(() => lockfileParserFor(as)!(text)).toThrow(LockfileError);
    expect(() => lockfileParserFor(as)!(text)).toThrow(message);
  });
});

describe('the offline OSV database', () => {
  const io = {} as SourceIo;
  const offline = createOfflineSource({ dir: join(FIXTURES, 'offline') });

  test('without the ecosystem export, the packages are unavailable, not clean', async () => {
    const answer = await offline.query([{ ecosystem: 'RubyGems', name: 'rack', version: '2.2.3' }], io);
    expect(answer).toEqual({
      kind: 'unavailable',
      message: expect.stringMatching(
        /^offline: no RubyGems export in .+ \(expected RubyGems\/all\.zip or RubyGems\/\*\.json from https:\/\/osv-vulnerabilities\.storage\.googleapis\.com\/RubyGems\/all\.zip\); RubyGems packages were not checked$/,
      ),
    });
  });

  test('with it, a package without advisories is clean', async () => {
    const answer = await offline.query([{ ecosystem: 'npm', name: 'left-pad', version: '1.3.0' }], io);
    expect(answer).toEqual({ kind: 'ok', records: [[] as OsvRecord[]] });
  });
});
