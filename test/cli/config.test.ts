import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registerConfig } from '../../src/cli/commands/config.js';
import { registerInit } from '../../src/cli/commands/init.js';
import { readConfigTemplate } from '../../src/core/config/template.js';
import { TollgateError } from '../../src/core/errors.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runInProcess } from '../support/in-process-cli.js';

let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterAll(async () => {
  await repo.cleanup();
});

/** Runs `tollgate <args>` in-process with its own cwd, env and stdout; resolves to what it printed. */
async function tollgate(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const run = await runInProcess(args, {
    register: [registerConfig, registerInit],
    cwd: options.cwd ?? repo.root,
    env: { ...repo.env, ...options.env },
  });
  return run.output;
}

describe('tollgate init and config', () => {
  test('init writes the template, refuses a second time, and overwrites with --force', async () => {
    // Nothing to propose in this project; what follows depends on who runs it (test/cli/init.test.ts).
    expect(await tollgate(['init'])).toMatch(
      /^checks: no test, lint or type-check command found in package\.json, .*\nwrote tollgate\.config\.yaml: list your project's commands under "checks:"\n/,
    );
    expect(await readFile(join(repo.root, 'tollgate.config.yaml'), 'utf8')).toBe(await readConfigTemplate());
    await expect(tollgate(['init'])).rejects.toThrow(
      new TollgateError('usage', 'tollgate.config.yaml already exists; rerun with --force to overwrite it'),
    );
    await repo.write('tollgate.config.yaml', 'base: main\n');
    expect(await tollgate(['init', '--force'])).toMatch(/\noverwrote tollgate\.config\.yaml: /);
    expect(await readFile(join(repo.root, 'tollgate.config.yaml'), 'utf8')).toBe(await readConfigTemplate());
  });

  test('config show reads the repository config from a subfolder, with env switches', async () => {
    await repo.write('tollgate.config.yaml', 'validation:\n  timeout: 2m\n');
    await repo.git('add', 'tollgate.config.yaml');
    await repo.git('commit', '--quiet', '-m', "config: the policy is the base commit's (docs/policy.md)");
    await repo.write('src/index.ts', '\n');
    const json = JSON.parse(
      await tollgate(['config', 'show', '--json'], { cwd: join(repo.root, 'src'), env: { TOLLGATE_USE_CHECKS: '0' } }),
    ) as Record<string, unknown>;
    expect(json['validation.timeout']).toEqual({ value: '2m', source: 'file' });
    expect(json['validation.checks.enabled']).toEqual({ value: false, source: 'env' });
    expect(await tollgate(['config', 'show'])).toContain('\nvalidation:\n  timeout: 2m  # from file\n');
  });

  test("config show masks a token written in a check's run: line, in text and JSON", async () => {
    const token = fakeChecksumToken('ghp_', 'config-show-run-line');
    await repo.write(
      'tollgate.config.yaml',
      `checks:\n  - name: api smoke\n    run: 'curl -H "Authorization: Bearer ${token}" https://example.test'\n`,
    );
    // The config is policy: `config show` shows the base's, so the edit is committed first.
    await repo.commit('a check with a token');
    const text = await tollgate(['config', 'show']);
    const json = await tollgate(['config', 'show', '--json']);
    expect(text).toContain('api smoke');
    for (const shown of [text, json]) expect(shown).not.toContain(token.slice(4));
    await repo.remove('tollgate.config.yaml');
    await repo.commit('no config');
  });

  test('config show reports a bad config as a config error', async () => {
    await repo.write('tollgate.config.yaml', 'chekcs: []\n');
    await expect(tollgate(['config', 'show'])).rejects.toThrow(
      'tollgate.config.yaml:1:1 unknown key "chekcs" (did you mean "checks"?)',
    );
    await repo.remove('tollgate.config.yaml');
  });

  test('config schema prints the pinned JSON Schema', async () => {
    expect(await tollgate(['config', 'schema'])).toBe(
      await readFile(new URL('../fixtures/config/schema.json', import.meta.url), 'utf8'),
    );
  });

  test.each([['init'], ['config'], ['config', 'show'], ['config', 'schema']])(
    'tollgate %s --help has examples, and each one runs',
    async (...command) => {
      const help = await tollgate([...command, '--help']);
      const examples = [...help.matchAll(/^ {2}\$ (.*)$/gm)].map((match) => match[1]!);
      expect(help).toMatch(/^Examples?:$/m);
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        // `NAME=value tollgate …` sets env; `> file` is the shell's business.
        const words = example.replace(/\s*>.*$/, '').split(/\s+/);
        const env: Record<string, string> = {};
        while (words[0]?.includes('=')) {
          const [name, value] = words.shift()!.split('=');
          env[name!] = value!;
        }
        expect(words.shift()).toBe('tollgate');
        await repo.remove('tollgate.config.yaml');
        await expect(tollgate(words, { env }), example).resolves.toBeTypeOf('string');
      }
    },
  );
});
