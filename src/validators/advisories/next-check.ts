import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResultReader } from '../../core/pipeline/tool.js';
import type { Ecosystem } from './ecosystems.js';

/**
 * How an advisories result names the next check, in the reader's words (a command at the terminal, a tool call's
 * input through MCP) and with the project's own ecosystem: a Python project is shown a PyPI package, not an npm one.
 */

/** A real package at a version with a known advisory, per ecosystem, in the spelling `parsePackageSpec` reads. */
export const EXAMPLE_PACKAGE: Record<Ecosystem, string> = {
  npm: 'npm:lodash@4.17.15',
  PyPI: 'pypi:requests@2.19.0',
  RubyGems: 'rubygems:rack@2.2.3',
  'crates.io': 'cargo:time@0.1.44',
  Go: 'go:golang.org/x/text@v0.3.7',
  Packagist: 'composer:guzzlehttp/guzzle@7.4.4',
  Maven: 'maven:org.apache.logging.log4j:log4j-core@2.14.1',
  NuGet: 'nuget:Newtonsoft.Json@12.0.1',
};

/**
 * Files at a project's root that say its ecosystem. npm comes last: many a Python or Ruby project keeps a
 * package.json for its tooling only.
 */
const ROOT_MARKERS: ReadonlyArray<[Ecosystem, readonly string[]]> = [
  ['PyPI', ['pyproject.toml', 'requirements.txt', 'poetry.lock', 'uv.lock', 'Pipfile', 'Pipfile.lock', 'setup.py']],
  ['RubyGems', ['Gemfile', 'Gemfile.lock']],
  ['crates.io', ['Cargo.toml', 'Cargo.lock']],
  ['Go', ['go.mod']],
  ['Packagist', ['composer.json', 'composer.lock']],
  ['Maven', ['pom.xml']],
  ['npm', ['package.json', 'package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'deno.lock']],
];

/** The project's ecosystem, from the files at its root; npm when none says. */
export function projectEcosystem(repoRoot: string): Ecosystem {
  const found = ROOT_MARKERS.find(([, files]) => files.some((file) => existsSync(join(repoRoot, file))));
  return found ? found[0] : 'npm';
}

/** The way to vet a package before adding it. */
export function vetPackageStep(reader: ResultReader, ecosystem: Ecosystem): string {
  const example = EXAMPLE_PACKAGE[ecosystem];
  return reader === 'mcp' ? `call with packages: ["${example}"]` : `run \`tollgate advisories check ${example}\``;
}

/** The way to check every locked dependency, not only the changed ones. */
export function checkAllStep(reader: ResultReader): string {
  return reader === 'mcp' ? 'use all: true' : 'run `tollgate advisories check --all`';
}
