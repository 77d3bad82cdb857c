import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { checkAllStep, EXAMPLE_PACKAGE, projectEcosystem, vetPackageStep } from './next-check.js';
import { parsePackageSpec } from './package-spec.js';

describe('the next check, in the reader’s words and the project’s ecosystem', () => {
  test.each(Object.entries(EXAMPLE_PACKAGE))('the %s example is a spec `advisories check` reads', (ecosystem, spec) => {
    const parsed = parsePackageSpec(spec);
    expect(parsed.ok && parsed.value.ecosystem).toBe(ecosystem);
  });

  test('a command at the terminal, a tool call through MCP', () => {
    expect(vetPackageStep('cli', 'PyPI')).toBe('run `tollgate advisories check pypi:requests@2.19.0`');
    expect(vetPackageStep('mcp', 'npm')).toBe('call with packages: ["npm:lodash@4.17.15"]');
    expect(checkAllStep('cli')).toBe('run `tollgate advisories check --all`');
    expect(checkAllStep('mcp')).toBe('use all: true');
  });

  describe('the ecosystem is read from the files at the root', () => {
    let root: string;
    beforeEach(async () => {
      root = await tempDir('tollgate-next-check-');
    });
    afterEach(() => removeDir(root));

    test.each([
      ['no manifest', [], 'npm'],
      ['requirements.txt', ['requirements.txt'], 'PyPI'],
      ['a Gemfile beside a package.json for tooling', ['Gemfile', 'package.json'], 'RubyGems'],
      ['package.json', ['package.json'], 'npm'],
      ['Cargo.toml', ['Cargo.toml'], 'crates.io'],
    ])('%s', (_name, files, ecosystem) => {
      for (const file of files) writeFileSync(join(root, file), '');
      expect(projectEcosystem(root)).toBe(ecosystem);
    });
  });
});
