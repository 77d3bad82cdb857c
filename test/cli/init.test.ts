import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readConfigTemplate } from '../../src/core/config/template.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { atTerminal, personEnv } from '../support/person-at-terminal.js';
import { runCli } from '../support/run-cli.js';

/**
 * A new user's first minutes: `tollgate init` finds the project's own commands and writes them as checks; run by a
 * person at their terminal, the config is accepted as the policy edit it is, so the next `tollgate run` (no terminal
 * needed) judges by it. Under an agent, or without a terminal, the edit waits for a person.
 */
let repo: TempRepo;
afterEach(async () => {
  await repo?.cleanup();
});

/** Scripts that leave a mark outside the repository (a mark inside would change the tree under the run). */
const PACKAGE_JSON = JSON.stringify({
  name: 'app',
  private: true,
  scripts: { test: 'echo ran >> "$HOME/test.ran"', lint: 'echo ran >> "$HOME/lint.ran"' },
});

async function freshProject(): Promise<void> {
  repo = await createTempRepo({
    files: { 'package.json': PACKAGE_JSON, 'package-lock.json': '{}\n', 'index.js': '\n' },
  });
}

interface Report {
  status: string;
  tools: Array<{ name: string; status: string; findings: Array<{ title: string; path?: string }> }>;
}

async function run(env: NodeJS.ProcessEnv): Promise<{ exitCode: number | null; report: Report }> {
  const result = await runCli(['run', '--format', 'json'], { cwd: repo.root, env });
  return { exitCode: result.exitCode, report: JSON.parse(result.stdout) as Report };
}

const marks = async (name: string) =>
  (await readFile(join(repo.home, name), 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

describe('tollgate init', () => {
  test("at a person's terminal: the project's scripts become checks, accepted, and the next run runs them", async () => {
    await freshProject();
    const init = await atTerminal(['init'], { cwd: repo.root, env: repo.env });
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain('checks: test → npm test (package.json scripts.test; npm from package-lock.json)');
    expect(init.stdout).toContain(
      'checks: lint → npm run lint (package.json scripts.lint; npm from package-lock.json)',
    );
    expect(init.stdout).toContain('wrote tollgate.config.yaml with 2 checks');
    expect(init.stdout).toContain('accepted it on this machine (the config is policy, docs/policy.md; you ran init at');
    const config = await readFile(join(repo.root, 'tollgate.config.yaml'), 'utf8');
    expect(config).toMatch(
      /^checks:\n {2}- name: test\n {4}run: npm test {2}# .*\n {2}- name: lint\n {4}run: npm run lint {2}#/m,
    );

    // An honest change, judged by the accepted config without a terminal.
    const env = personEnv(repo.env);
    await repo.write('index.js', 'export const answer = 42;\n');
    const first = await run(env);
    expect(first.report.tools.find((tool) => tool.name === 'policy')?.findings ?? []).toEqual([]);
    expect(first.report.tools.find((tool) => tool.name === 'checks')?.status).toBe('passed');
    expect(first.exitCode).toBe(0);
    expect([await marks('test.ran'), await marks('lint.ran')]).toEqual([1, 1]);

    // A developer with no remote commits the config: the accepted edit still holds (the base stays where the last
    // pass found it), and once that commit passes, it is the base's config.
    await repo.commit('tollgate: config from tollgate init');
    await repo.write('index.js', 'export const answer = 43;\n');
    const committed = await run(env);
    expect(committed.exitCode).toBe(0);
    await repo.commit('answer');
    await repo.write('index.js', 'export const answer = 44;\n');
    const later = await run(env);
    expect(later.exitCode).toBe(0);
    expect([await marks('test.ran'), await marks('lint.ran')]).toEqual([3, 3]);
    const status = await runCli(['policy', 'status'], { cwd: repo.root, env });
    expect(status.stdout).toMatch(/tollgate\.config\.yaml {2}as in the base/);
  });

  test('over a config committed after the last pass: the acceptance holds once that commit becomes the base', async () => {
    await freshProject();
    const env = personEnv(repo.env);
    await repo.write('tollgate.config.yaml', 'validation:\n  timeout: 5m\n');
    await repo.commit('tollgate: a first config');
    expect((await run(env)).exitCode).toBe(0);
    // Committed on main with no remote and no run since: the base stays at the validated commit.
    await repo.write('tollgate.config.yaml', 'validation:\n  timeout: 6m\n');
    const unvalidated = await repo.commit('tollgate: a longer timeout');

    const init = await atTerminal(['init', '--force'], { cwd: repo.root, env: repo.env });
    expect(init.stdout).toContain('accepted it on this machine');
    const before = await runCli(['policy', 'status'], { cwd: repo.root, env });
    expect(before.stdout).not.toContain(`policy from the base commit ${unvalidated.slice(0, 12)}`);
    expect(before.stdout).toMatch(/tollgate\.config\.yaml {2}edited: accepted on this machine/);

    // A pass validates HEAD, so HEAD becomes the base; the config the person accepted still applies.
    await repo.write('index.js', 'export const answer = 42;\n');
    expect((await run(env)).exitCode).toBe(0);
    const after = await runCli(['policy', 'status'], { cwd: repo.root, env });
    expect(after.stdout).toContain(`policy from the base commit ${unvalidated.slice(0, 12)}`);
    expect(after.stdout).toMatch(/tollgate\.config\.yaml {2}edited: accepted on this machine/);
    await repo.write('index.js', 'export const answer = 43;\n');
    const later = await run(env);
    expect(later.report.tools.find((tool) => tool.name === 'policy')?.findings ?? []).toEqual([]);
    expect(later.exitCode).toBe(0);
  });

  test('under a coding agent: the file is written, a person must accept it, and the run reports the edit', async () => {
    await freshProject();
    const env = { ...personEnv(repo.env), CLAUDECODE: '1' };
    const init = await runCli(['init'], { cwd: repo.root, env });
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain('wrote tollgate.config.yaml with 2 checks');
    expect(init.stdout).toContain('a person must accept it before "tollgate run" uses it');
    expect(init.stdout).not.toContain('policy accept');
    const { exitCode, report } = await run(env);
    expect(exitCode).toBe(1);
    expect(report.tools.find((tool) => tool.name === 'policy')?.findings).toMatchObject([
      { title: 'Policy edit not applied: tollgate.config.yaml (added)', path: 'tollgate.config.yaml' },
    ]);
    expect(await marks('test.ran')).toBe(0);

    // As in CI: only the base's config counts, even at a person's terminal.
    const ci = await atTerminal(['init', '--force'], { cwd: repo.root, env: { ...repo.env, TOLLGATE_POLICY: 'base' } });
    expect(ci.stdout).toContain("TOLLGATE_POLICY=base, so runs use the base's config until this one is merged");
  });

  test('without a terminal, the person is told the command; --no-detect writes the bare template', async () => {
    await freshProject();
    const init = await runCli(['init'], { cwd: repo.root, env: personEnv(repo.env) });
    expect(init.exitCode).toBe(0);
    expect(init.stdout).toContain('a person accepts it by running "tollgate policy accept" in their own terminal');
    expect(existsSync(join(repo.root, '.tollgate', 'policy-accepted.json'))).toBe(false);

    const bare = await runCli(['init', '--force', '--no-detect'], { cwd: repo.root, env: personEnv(repo.env) });
    expect(bare.exitCode).toBe(0);
    expect(bare.stdout).not.toContain('checks: test');
    expect(bare.stdout).toContain('overwrote tollgate.config.yaml: list your project\'s commands under "checks:"');
    expect(await readFile(join(repo.root, 'tollgate.config.yaml'), 'utf8')).toBe(await readConfigTemplate());

    // The base already has this very config: nothing for anyone to accept.
    await repo.commit('tollgate: the bare config');
    const again = await runCli(['init', '--force', '--no-detect'], { cwd: repo.root, env: personEnv(repo.env) });
    expect(again.stdout).toMatch(/\nthe next "tollgate run" uses it\n$/);
  });
});
