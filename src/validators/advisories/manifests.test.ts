import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { exactVersion, manifestParserFor } from './manifests.js';

const parse = (path: string, text: string) => manifestParserFor(path)!.parser(text);

describe('manifests', () => {
  test('package.json: every dependency section, registry specs only', () => {
    const text = JSON.stringify({
      dependencies: { lodash: '4.17.15', ky: '^1.2.0', local: 'file:../local', repo: 'github:a/b' },
      devDependencies: { vitest: '~3.2.0' },
      peerDependencies: { react: '>=18' },
    });
    expect(parse('package.json', text)).toEqual([
      { ecosystem: 'npm', name: 'lodash', spec: '4.17.15' },
      { ecosystem: 'npm', name: 'ky', spec: '^1.2.0' },
      { ecosystem: 'npm', name: 'vitest', spec: '~3.2.0' },
      { ecosystem: 'npm', name: 'react', spec: '>=18' },
    ]);
  });

  test('requirements.txt, pyproject.toml (PEP 621 and Poetry), Cargo.toml and Gemfile', () => {
    expect(parse('requirements-dev.txt', 'django>=3.2,<4 # web\nrequests==2.31.0\n-r base.txt\n')).toEqual([
      { ecosystem: 'PyPI', name: 'django', spec: '>=3.2,<4' },
      { ecosystem: 'PyPI', name: 'requests', spec: '==2.31.0' },
    ]);
    const pyproject =
      '[project]\ndependencies = ["flask[async] (>=2.0)", "rich"]\n[tool.poetry.dependencies]\npython = "^3.11"\nhttpx = { version = "^0.27" }\n';
    expect(parse('pyproject.toml', pyproject)).toEqual([
      { ecosystem: 'PyPI', name: 'flask', spec: '>=2.0' },
      { ecosystem: 'PyPI', name: 'rich', spec: '*' },
      { ecosystem: 'PyPI', name: 'httpx', spec: '^0.27' },
    ]);
    const cargo =
      '[dependencies]\nserde = "1.0"\ntokio = { version = "=1.38.0", features = ["full"] }\nlocal = { path = "../local" }\n';
    expect(parse('crates/app/Cargo.toml', cargo)).toEqual([
      { ecosystem: 'crates.io', name: 'serde', spec: '1.0' },
      { ecosystem: 'crates.io', name: 'tokio', spec: '=1.38.0' },
    ]);
    expect(
      parse('Gemfile', "source 'https://rubygems.org'\ngem 'rails', '~> 7.1', '>= 7.1.2'\ngem \"rack\"\n"),
    ).toEqual([
      { ecosystem: 'RubyGems', name: 'rails', spec: '~> 7.1, >= 7.1.2' },
      { ecosystem: 'RubyGems', name: 'rack', spec: '*' },
    ]);
  });

  test('malformed manifests are one-line problems, not crashes', () => {
    expect(() => parse('package.json', '{ nope')).toThrow(/^not valid JSON/);
    expect(() => parse('Cargo.toml', '[dependencies\n')).toThrow(/^not valid TOML/);
  });

  test('an exact version is pinned; anything with an operator or a wildcard is a range', () => {
    const version = fc
      .tuple(fc.nat(50), fc.nat(50), fc.nat(50))
      .map(([major, minor, patch]) => `${major}.${minor}.${patch}`);
    fc.assert(
      fc.property(version, fc.constantFrom('^', '~', '>=', '<', '*', '1.x'), (v, operator) => {
        expect(exactVersion('npm', v)).toBe(v);
        expect(exactVersion('npm', `=${v}`)).toBe(v);
        expect(exactVersion('PyPI', `==${v}`)).toBe(v);
        expect(exactVersion('crates.io', `=${v}`)).toBe(v);
        expect(exactVersion('crates.io', v)).toBeNull(); // Cargo's bare version is a caret range
        expect(exactVersion('npm', operator === '1.x' ? operator : `${operator}${v}`)).toBeNull();
      }),
    );
  });
});
