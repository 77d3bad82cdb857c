import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { diffLockedPackages } from '../dependency-diff.js';
import { LockfileError, lockfileParserFor } from './index.js';

const LOCKFILES = join(import.meta.dirname, '../../../../test/fixtures/advisories/lockfiles');

function parse(fixture: string, as: string) {
  const parser = lockfileParserFor(as);
  if (!parser) throw new Error(`no parser for ${as}`);
  return parser(readFileSync(join(LOCKFILES, fixture), 'utf8')).map(
    (pkg) => `${pkg.ecosystem}:${pkg.name}@${pkg.version}`,
  );
}

describe('lockfile parsers read what each package manager pins', () => {
  test.each([
    [
      'package-lock v3 written by npm 11',
      'npm/after/package-lock.json',
      'package-lock.json',
      [
        'npm:@babel/code-frame@7.0.0',
        'npm:@babel/helper-validator-identifier@7.29.7',
        'npm:@babel/highlight@7.25.9',
        'npm:ansi-styles@3.2.1',
        'npm:chalk@2.4.2',
        'npm:color-convert@1.9.3',
        'npm:color-name@1.1.3',
        'npm:escape-string-regexp@1.0.5',
        'npm:has-flag@3.0.0',
        'npm:js-tokens@4.0.0',
        'npm:lodash@4.17.15',
        'npm:minimist@1.2.0',
        'npm:picocolors@1.1.1',
        'npm:supports-color@5.5.0',
      ],
    ],
    [
      'npm-shrinkwrap (same format)',
      'npm/before/package-lock.json',
      'npm-shrinkwrap.json',
      ['npm:lodash@4.17.21', 'npm:minimist@1.2.8'],
    ],
    [
      'yarn.lock v1',
      'yarn/v1.yarn.lock',
      'yarn.lock',
      ['npm:@babel/code-frame@7.0.0', 'npm:lodash@4.17.15', 'npm:minimist@1.2.0'],
    ],
    [
      'yarn.lock berry (workspaces left out)',
      'yarn/berry.yarn.lock',
      'yarn.lock',
      ['npm:@babel/code-frame@7.0.0', 'npm:lodash@4.17.15'],
    ],
    [
      'pnpm-lock v9',
      'pnpm/v9.pnpm-lock.yaml',
      'pnpm-lock.yaml',
      ['npm:@babel/code-frame@7.0.0', 'npm:lodash@4.17.15', 'npm:react-dom@18.2.0'],
    ],
    [
      'pnpm-lock v6 (leading slash, peer suffix)',
      'pnpm/v6.pnpm-lock.yaml',
      'pnpm-lock.yaml',
      ['npm:@babel/code-frame@7.0.0', 'npm:minimist@1.2.0', 'npm:react-dom@18.2.0'],
    ],
    [
      'requirements.txt (pins only; hashes, markers, extras, options skipped)',
      'python/requirements.txt',
      'requirements-dev.txt',
      ['PyPI:Django@3.2.0', 'PyPI:requests@2.25.1', 'PyPI:asgiref@3.3.4'],
    ],
    ['poetry.lock', 'python/poetry.lock', 'poetry.lock', ['PyPI:asgiref@3.3.4', 'PyPI:django@3.2.0']],
    [
      'Pipfile.lock (default and develop; editable skipped)',
      'python/Pipfile.lock',
      'Pipfile.lock',
      ['PyPI:django@3.2.0', 'PyPI:asgiref@3.3.4', 'PyPI:pytest@6.2.4'],
    ],
    [
      'go.mod (single and block requires, indirect too)',
      'go/go.mod',
      'go.mod',
      ['Go:golang.org/x/net@v0.6.0', 'Go:github.com/google/uuid@v1.3.0', 'Go:golang.org/x/text@v0.7.0'],
    ],
    [
      'go.sum (module lines, not /go.mod-only lines)',
      'go/go.sum',
      'go.sum',
      ['Go:github.com/google/uuid@v1.3.0', 'Go:golang.org/x/net@v0.6.0', 'Go:golang.org/x/text@v0.7.0'],
    ],
    ['Cargo.lock (registry crates only)', 'cargo/Cargo.lock', 'Cargo.lock', ['crates.io:smallvec@1.6.0']],
    [
      'Gemfile.lock (GEM specs, platform suffix dropped)',
      'ruby/Gemfile.lock',
      'Gemfile.lock',
      ['RubyGems:actionpack@6.1.3', 'RubyGems:nokogiri@1.11.1', 'RubyGems:rack@2.2.3'],
    ],
    [
      'composer.lock (v prefix dropped, dev branches skipped)',
      'composer/composer.lock',
      'composer.lock',
      ['Packagist:guzzlehttp/guzzle@7.2.0', 'Packagist:symfony/http-kernel@5.2.1', 'Packagist:phpunit/phpunit@9.5.0'],
    ],
  ])('%s', (_name, fixture, as, expected) => {
    expect(parse(fixture, as)).toEqual(expected);
  });

  test.each([
    ['package-lock.json', '{"packages": 3}'],
    ['package-lock.json', '{not json'],
    ['Pipfile.lock', '[]'],
    ['yarn.lock', 'lodash@4.17.15\n  version "1"\n'],
    ['pnpm-lock.yaml', 'packages: [1, 2'],
    ['Cargo.lock', '[[package]]\nname = "x"\n'],
  ])('%s with %j is a LockfileError', (as, text) => {
    expect(() => lockfileParserFor(as)!(text)).toThrow(LockfileError);
  });

  test.each([
    ['node_modules/x/package-lock.json', false],
    ['vendor/github.com/a/go.mod', false],
    ['services/api/requirements-prod.txt', true],
    ['docs/requirements.md', false],
  ])('%s is a lockfile: %s', (path, expected) => {
    expect(lockfileParserFor(path) !== undefined).toBe(expected);
  });
});

describe('diffLockedPackages', () => {
  const before = [
    { ecosystem: 'npm' as const, name: 'lodash', version: '4.17.21' },
    { ecosystem: 'npm' as const, name: 'minimist', version: '1.2.8' },
  ];
  const after = [
    { ecosystem: 'npm' as const, name: 'lodash', version: '4.17.15' },
    { ecosystem: 'npm' as const, name: 'minimist', version: '1.2.8' },
    { ecosystem: 'npm' as const, name: 'left-pad', version: '1.3.0' },
  ];

  test('keeps only new or changed name@version pairs, saying which', () => {
    expect(diffLockedPackages('package-lock.json', before, after, { all: false })).toEqual([
      {
        ecosystem: 'npm',
        name: 'lodash',
        version: '4.17.15',
        lockfile: 'package-lock.json',
        change: 'changed',
        previous: '4.17.21',
      },
      { ecosystem: 'npm', name: 'left-pad', version: '1.3.0', lockfile: 'package-lock.json', change: 'added' },
    ]);
  });

  test('with all, keeps the unchanged ones too, marked', () => {
    expect(diffLockedPackages('package-lock.json', before, after, { all: true }).map((dep) => dep.change)).toEqual([
      'changed',
      'unchanged',
      'added',
    ]);
  });

  test('a lockfile new in the change adds everything in it', () => {
    expect(diffLockedPackages('package-lock.json', null, before, { all: false }).map((dep) => dep.change)).toEqual([
      'added',
      'added',
    ]);
  });
});
