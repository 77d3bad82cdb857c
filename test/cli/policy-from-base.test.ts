import { afterEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * Policy from the base (docs/policy.md): the change being judged cannot relax the gate that judges it. Each case was
 * a pass before: a change that adds a secret, and a policy edit that clears it. Now the run fails, lists the pending
 * edit as a finding, and the stop hook blocks; once a person accepts the edit at a terminal, it applies.
 */
const token = fakeChecksumToken('ghp_', 'policy-from-base');
const CONFIG = 'validation:\n  advisories: { enabled: false }\n  static_analysis: { enabled: false }\n';

let repo: TempRepo;
afterEach(async () => {
  await repo?.cleanup();
});

async function setup(files: Record<string, string> = {}) {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': CONFIG, ...files } });
  await repo.git('checkout', '--quiet', '-b', 'feature');
}

interface Report {
  tools: Array<{ name: string; status: string; findings: Array<{ id: string; severity: string; path?: string }> }>;
}

async function gate(env: NodeJS.ProcessEnv = repo.env): Promise<{ exitCode: number | null; report: Report }> {
  const run = await runCli(['run', '--format', 'json'], { cwd: repo.root, env });
  return { exitCode: run.exitCode, report: JSON.parse(run.stdout) as Report };
}

const toolOf = (report: Report, name: string) => report.tools.find((tool) => tool.name === name);

async function stopHook(): Promise<string> {
  const stop = await runCli(['hook', 'stop', '--agent', 'claude'], {
    cwd: repo.root,
    env: repo.env,
    input: JSON.stringify({ session_id: 'policy', cwd: repo.root, hook_event_name: 'Stop', stop_hook_active: false }),
  });
  return stop.stdout;
}

/** The run fails on the secret and on the pending edit of `path`, and the stop hook blocks. */
async function expectBlocked(path: string): Promise<Report> {
  const { exitCode, report } = await gate();
  expect(exitCode).toBe(1);
  expect(toolOf(report, 'secrets')?.status).toBe('failed');
  expect(toolOf(report, 'policy')?.findings).toMatchObject([{ severity: 'high', path }]);
  expect(await stopHook()).toContain('"decision":"block"');
  return report;
}

const personEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_DEBUG: '' };
  for (const name of ['CLAUDECODE', 'GEMINI_CLI', 'TOLLGATE_ACTIVE', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED'])
    delete env[name];
  return env;
};

/** `tollgate policy accept` on a pseudo-terminal (util-linux `script`), typing `typed`. */
function acceptAtTerminal(typed: string) {
  const command = `'${process.execPath}' '${CLI_PATH}' policy accept`;
  return runProcess('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: repo.root,
    env: personEnv(),
    input: `${typed}\n`,
    timeoutMs: 30_000,
  });
}

describe('a change cannot relax the policy that judges it', () => {
  test('an uncommitted .gitleaksignore clearing its own secret; accepted by a person, it applies', async () => {
    await setup();
    await repo.write('app.env', `GITHUB_TOKEN=${token}\n`);
    await repo.write('.gitleaksignore', 'app.env:github-pat:1\n');
    await expectBlocked('.gitleaksignore');

    const refused = await runCli(['policy', 'accept'], { cwd: repo.root, env: personEnv() });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('standard input is not a terminal');
    const underAgent = await runCli(['policy', 'accept'], { cwd: repo.root, env: { ...repo.env, CLAUDECODE: '1' } });
    expect(underAgent.stderr).toContain('this runs under a coding agent');

    const wrong = await acceptAtTerminal('yes');
    expect(wrong.stdout).toContain('not confirmed; nothing was accepted');
    const status = await runCli(['policy', 'status'], { cwd: repo.root, env: repo.env });
    expect(status.stdout).toMatch(/\.gitleaksignore +edited: PENDING a person's review/);

    const accepted = await acceptAtTerminal('accept');
    expect(accepted.stdout).toContain('+ app.env:github-pat:1');
    expect(accepted.stdout).toContain('accepted 1 policy edit on this machine');
    expect((await gate()).exitCode).toBe(0);

    // Another edit of the accepted file is a new, pending change.
    await repo.write('.gitleaksignore', 'app.env:github-pat:1\nother.env:github-pat:1\n');
    await expectBlocked('.gitleaksignore');
  });

  test("a baseline at a repository path, named by the change's own config", async () => {
    await setup();
    await repo.write('app.env', `GITHUB_TOKEN=${token}\n`);
    await repo.write('tollgate.config.yaml', `${CONFIG}secrets:\n  baseline: security/baseline.json\n`);
    const written = await runCli(['scan', '--all', '--baseline-write'], { cwd: repo.root, env: repo.env });
    expect(written.exitCode).toBe(0);
    await repo.commit('baseline');
    await expectBlocked('tollgate.config.yaml');
  });

  test('an agent-committed tollgate.waivers.yaml waiving its own secret', async () => {
    await setup();
    await repo.write('app.env', `GITHUB_TOKEN=${token}\n`);
    const first = await gate();
    const id = toolOf(first.report, 'secrets')?.findings[0]?.id;
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    await repo.write(
      'tollgate.waivers.yaml',
      `waivers:\n  - finding: ${id}\n    reason: fixture\n    by: agent\n    at: 2026-11-26T10:00:00Z\n`,
    );
    await repo.commit('add a key and waive it');
    const report = await expectBlocked('tollgate.waivers.yaml');
    expect(toolOf(report, 'secrets')?.findings[0]).not.toHaveProperty('waiver');
  });

  test("secrets.enabled: false in the change, committed or not; TOLLGATE_USE_SECRETS=0 is the user's choice", async () => {
    await setup();
    await repo.write('app.env', `GITHUB_TOKEN=${token}\n`);
    await repo.write('tollgate.config.yaml', `${CONFIG}  secrets: { enabled: false }\n`);
    await expectBlocked('tollgate.config.yaml');
    await repo.commit('switch secrets off');
    await expectBlocked('tollgate.config.yaml');

    // The environment is the user's, not the change's: it still switches a validator off (and the report says so).
    await repo.git('checkout', '--quiet', 'main', '--', 'tollgate.config.yaml');
    const userOff = await gate({ ...repo.env, TOLLGATE_USE_SECRETS: '0' });
    expect(toolOf(userOff.report, 'secrets')).toBeUndefined();
  });

  test('TOLLGATE_POLICY=base (CI): no edit can be accepted', async () => {
    await setup();
    await repo.write('.gitleaksignore', 'app.env:github-pat:1\n');
    const ci = await runCli(['policy', 'status'], { cwd: repo.root, env: { ...repo.env, TOLLGATE_POLICY: 'base' } });
    expect(ci.stdout).toContain('TOLLGATE_POLICY=base: edits cannot be accepted');
    const bad = await runCli(['run'], { cwd: repo.root, env: { ...repo.env, TOLLGATE_POLICY: 'head' } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('TOLLGATE_POLICY: expected "base"');
  });
});
