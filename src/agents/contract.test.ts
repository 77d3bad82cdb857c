import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTempHome, type TempHome } from '../../test/support/temp-home.js';
import { runProcess } from '../core/process.js';
import { flagsMissingFromHelp } from './help-flags.js';
import { agentAdapters } from './index.js';

/**
 * Contract tests against the pinned real CLIs: every flag an adapter passes must be in that CLI's live `--help` (or,
 * for a declared hidden flag, be accepted by the argument parser). The CLIs live in test/.agent-clis/, installed by
 * `test/agents/install-real-clis.sh`; without that folder these tests skip.
 */
const CLI_ROOT = resolve(import.meta.dirname, '../../test/.agent-clis');
const installed = existsSync(CLI_ROOT);
if (!installed) {
  console.warn(
    'skipping the real-CLI contract tests: test/.agent-clis/ is absent (run test/agents/install-real-clis.sh to install the pinned CLIs)',
  );
}

describe.skipIf(!installed)('the pinned real CLIs', () => {
  let home: TempHome;
  beforeAll(async () => {
    home = await createTempHome();
  });
  afterAll(async () => home?.cleanup());

  const npmAdapters = agentAdapters.filter((adapter) => adapter.npmPackage !== null);
  const binOf = (name: string, bin: string) => join(CLI_ROOT, name, 'node_modules', '.bin', bin);
  const run = (name: string, bin: string, args: readonly string[]) =>
    runProcess(binOf(name, bin), args, {
      cwd: home.home,
      env: { PATH: process.env.PATH, HOME: home.home, TERM: 'dumb', NO_COLOR: '1' },
      input: 'hi\n',
      timeoutMs: 60_000,
    });

  test.each(npmAdapters.map((adapter) => [adapter.name, adapter] as const))(
    '%s: the installed version is a verified one, and its --help lists every flag the adapter passes',
    async (name, adapter) => {
      const version = await run(name, adapter.bin, adapter.versionArgs);
      expect(adapter.verifiedVersions.some((verified) => version.stdout.includes(verified))).toBe(true);
      const help = await run(name, adapter.bin, adapter.helpArgs);
      expect(help.exitCode).toBe(0);
      expect(flagsMissingFromHelp(adapter, `${help.stdout}\n${help.stderr}`)).toEqual([]);
    },
    90_000,
  );

  test('claude: the hidden --max-turns is parsed (a bad value is rejected by its validator, not as an unknown option)', async () => {
    const result = await run('claude', 'claude', ['-p', '--max-turns', 'abc']);
    const text = `${result.stdout}${result.stderr}`;
    expect(text).toContain("'--max-turns <turns>' argument 'abc' is invalid");
    expect(text).not.toContain('unknown option');
  });
});
