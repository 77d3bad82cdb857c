import { describe, expect, test } from 'vitest';
import { registriesWith } from '../../../../test/support/registries.js';
import { validators } from '../../../validators/index.js';
import { parseConfigText } from '../load.js';
import { readConfigTemplate } from '../template.js';
import { type DetectedCheck, detectChecks } from './detect-checks.js';
import { templateWithChecks } from './render-checks.js';

const scripts = (names: Record<string, string>) => JSON.stringify({ name: 'app', scripts: names });
const TEST_AND_LINT = scripts({ test: 'vitest run', lint: 'biome check .' });

/** What init proposes (name → run) for the files at a project's root. */
function proposed(files: Record<string, string>): Record<string, string> {
  const { checks } = detectChecks(new Map(Object.entries(files)));
  return Object.fromEntries(checks.map((check) => [check.name, check.run]));
}

describe('detectChecks: what tollgate init proposes for a project', () => {
  test.each<{ project: string; files: Record<string, string>; checks: Record<string, string> }>([
    { project: 'an empty folder', files: {}, checks: {} },
    {
      project: 'npm without a lockfile',
      files: { 'package.json': TEST_AND_LINT },
      checks: { test: 'npm test', lint: 'npm run lint' },
    },
    {
      project: 'npm with package-lock.json, every script kind',
      files: {
        'package.json': scripts({ test: 'x', lint: 'x', typecheck: 'tsc', check: 'x', build: 'x' }),
        'package-lock.json': '',
      },
      checks: { test: 'npm test', lint: 'npm run lint', typecheck: 'npm run typecheck', check: 'npm run check' },
    },
    {
      project: 'pnpm with a tsc script',
      files: { 'package.json': scripts({ lint: 'x', tsc: 'tsc --noEmit' }), 'pnpm-lock.yaml': '' },
      checks: { lint: 'pnpm run lint', typecheck: 'pnpm run tsc' },
    },
    {
      project: 'yarn',
      files: { 'package.json': TEST_AND_LINT, 'yarn.lock': '' },
      checks: { test: 'yarn test', lint: 'yarn lint' },
    },
    {
      project: 'bun (bun.lockb): scripts through bun run, not bun test',
      files: { 'package.json': TEST_AND_LINT, 'bun.lockb': '' },
      checks: { test: 'bun run test', lint: 'bun run lint' },
    },
    {
      project: 'bun (bun.lock)',
      files: { 'package.json': TEST_AND_LINT, 'bun.lock': '' },
      checks: { test: 'bun run test', lint: 'bun run lint' },
    },
    {
      project: "npm init's placeholder test script is no check",
      files: { 'package.json': scripts({ test: 'echo "Error: no test specified" && exit 1' }) },
      checks: {},
    },
    {
      project: 'pyproject.toml with pytest, ruff and mypy configured',
      files: {
        'pyproject.toml':
          '[tool.pytest.ini_options]\naddopts = "-q"\n[tool.ruff]\nline-length = 100\n[tool.mypy]\nstrict = true\n',
      },
      checks: { test: 'pytest', lint: 'ruff check .', typecheck: 'mypy .' },
    },
    {
      project: 'Poetry, with mypy told its files',
      files: { 'pyproject.toml': '[tool.poetry]\nname = "x"\n[tool.mypy]\nfiles = ["src"]\n' },
      checks: { typecheck: 'poetry run mypy' },
    },
    {
      project: 'uv, pytest only as a dependency group',
      files: { 'pyproject.toml': '[dependency-groups]\ndev = ["pytest>=8", "pytest-cov"]\n', 'uv.lock': '' },
      checks: { test: 'uv run pytest' },
    },
    {
      project: 'pytest-cov alone is not pytest',
      files: { 'pyproject.toml': '[project.optional-dependencies]\ndev = ["pytest-cov"]\n' },
      checks: {},
    },
    {
      project: 'tox environments fill what pyproject.toml does not configure',
      files: {
        'pyproject.toml': '[tool.ruff]\n',
        'tox.ini': '[tox]\nenvlist =\n    py311\n    py312\n    lint\n\n[testenv:type]\ncommands = mypy src\n',
      },
      checks: { lint: 'ruff check .', test: 'tox -e py', typecheck: 'tox -e type' },
    },
    {
      project: 'nox sessions, one named by name=',
      files: {
        'noxfile.py':
          'import nox\n\n@nox.session(python=["3.12"])\ndef tests(session):\n    session.run("pytest")\n\n@nox.session(name="lint")\ndef run_linters(session):\n    pass\n',
      },
      checks: { test: 'nox -s tests', lint: 'nox -s lint' },
    },
    {
      project: 'a Gemfile with RSpec and RuboCop',
      files: {
        Gemfile:
          "source 'https://rubygems.org'\ngem 'rspec-rails'\ngem \"rubocop\", require: false\n# gem 'minitest'\n",
      },
      checks: { test: 'bundle exec rspec', lint: 'bundle exec rubocop' },
    },
    {
      project: "a Rakefile's test task",
      files: { Gemfile: "gem 'rake'\n", Rakefile: "require 'rake/testtask'\nRake::TestTask.new(:test)\n" },
      checks: { test: 'bundle exec rake test' },
    },
    {
      project: 'go.mod',
      files: { 'go.mod': 'module example.com/x\n' },
      checks: { test: 'go test ./...', vet: 'go vet ./...' },
    },
    {
      project: 'Cargo.toml',
      files: { 'Cargo.toml': '[package]\nname = "x"\n' },
      checks: { test: 'cargo test', clippy: 'cargo clippy' },
    },
    {
      project: 'a Makefile: test, lint and typecheck targets, not assignments',
      files: {
        Makefile:
          'TEST := x\n.PHONY: test lint\ntest: build\n\tgo test ./...\nlint:\n\tgolangci-lint run\ntypecheck:\n\ttrue\n',
      },
      checks: { test: 'make test', lint: 'make lint', typecheck: 'make typecheck' },
    },
    {
      project: "a Makefile's check target stands for test when there is none",
      files: { Makefile: 'check:\n\t./run-tests\n' },
      checks: { test: 'make check' },
    },
    {
      project: "a Makefile's targets cover the same kinds from package.json",
      files: { Makefile: 'test:\n\tnpm test\n', 'package.json': TEST_AND_LINT },
      checks: { test: 'make test', lint: 'npm run lint' },
    },
    {
      project: 'two ecosystems at one root keep both, with distinct names',
      files: { 'go.mod': 'module x\n', 'package.json': TEST_AND_LINT },
      checks: { test: 'npm test', lint: 'npm run lint', 'test (go)': 'go test ./...', vet: 'go vet ./...' },
    },
  ])('$project', ({ files, checks }) => {
    expect(proposed(files)).toEqual(checks);
  });

  test('says where each check came from, and why one was left out', () => {
    const found = detectChecks(
      new Map(
        Object.entries({ Makefile: 'test:\n\tnpm test\n', 'package.json': TEST_AND_LINT, 'package-lock.json': '' }),
      ),
    );
    expect(found.checks).toEqual([
      { name: 'test', run: 'make test', source: 'Makefile target test' },
      { name: 'lint', run: 'npm run lint', source: 'package.json scripts.lint; npm from package-lock.json' },
    ]);
    expect(found.notes).toEqual([
      "npm test (package.json scripts.test; npm from package-lock.json) not added: test runs make test (Makefile target test), the project's own entry point",
    ]);
  });

  test.each([
    { file: 'package.json', text: '{"scripts": {"test": ', note: /^package\.json skipped: not valid JSON \(/ },
    {
      file: 'pyproject.toml',
      text: '[tool.pytest\n',
      note: /^pyproject\.toml:1:13 skipped: not valid TOML \(illegal character in key\)$/,
    },
    { file: 'Cargo.toml', text: 'name = = 1\n', note: /^Cargo\.toml:1:\d+ skipped: not valid TOML \(/ },
  ])('a malformed $file is skipped with a note', ({ file, text, note }) => {
    const found = detectChecks(new Map([[file, text]]));
    expect(found.checks).toEqual([]);
    expect(found.notes).toHaveLength(1);
    expect(found.notes[0]).toMatch(note);
  });
});

describe('templateWithChecks: the checks, active, in the commented template', () => {
  const load = (text: string) =>
    parseConfigText({ text, file: 'tollgate.config.yaml', env: {}, registries: registriesWith(validators) });

  test('writes entries the config schema accepts, and keeps every comment of the template', async () => {
    const template = await readConfigTemplate();
    const checks: DetectedCheck[] = [
      { name: 'test', run: 'npm test', source: 'package.json scripts.test; npm from package-lock.json' },
      { name: 'odd: name', run: "echo '#not a comment' && exit 0", source: 'somewhere' },
    ];
    const text = templateWithChecks(template, checks);
    expect(text).toContain(
      'checks:\n  - name: test\n    run: npm test  # found by tollgate init: package.json scripts.test; npm from package-lock.json\n  - name: "odd: name"\n',
    );
    const comments = (source: string) => source.split('\n').filter((line) => line.trimStart().startsWith('#'));
    expect(comments(text)).toEqual(comments(template));
    const loaded = load(text).config as unknown as { checks: { name: string; run: string }[] };
    expect(loaded.checks.map(({ name, run }) => ({ name, run }))).toEqual(
      checks.map(({ name, run }) => ({ name, run })),
    );
  });

  test('no checks: the template unchanged', async () => {
    const template = await readConfigTemplate();
    expect(templateWithChecks(template, [])).toBe(template);
  });
});
