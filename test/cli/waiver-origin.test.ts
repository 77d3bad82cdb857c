import { afterEach, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * `--human` through a borrowed pseudo-terminal (`script -qc`, the id piped in) still works: no local check proves a
 * person (docs/waivers.md). What tollgate does instead: it records how the waiver was made, shows it, and holds a
 * local high waiver to this commit only.
 */
let repo: TempRepo;
afterEach(() => repo.cleanup());

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

function borrowedTerminal(args: string[], typed: string, env: NodeJS.ProcessEnv) {
  const command = [process.execPath, CLI_PATH, ...args].map(shellQuote).join(' ');
  return runProcess('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: repo.root,
    env,
    input: `${typed}\n`,
    timeoutMs: 30_000,
  });
}

async function checksRun(env: NodeJS.ProcessEnv) {
  const run = await runCli(['run', '--only', 'checks', '--format', 'json'], { cwd: repo.root, env });
  const checks = JSON.parse(run.stdout).tools.find((tool: { name: string }) => tool.name === 'checks');
  return {
    exitCode: run.exitCode,
    finding: checks.findings[0] as { id: string; severity: string; waiver?: { how?: string } },
  };
}

test('a waiver made through a borrowed terminal is recorded as such, and a local high one lapses at the next commit', async () => {
  repo = await createTempRepo({
    files: { 'tollgate.config.yaml': 'checks:\n  - name: unit tests\n    run: cat result.tap; exit 1\n' },
  });
  const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_DEBUG: '' };
  for (const name of ['CLAUDECODE', 'GEMINI_CLI', 'TOLLGATE_ACTIVE', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED'])
    delete env[name];
  await repo.write('result.tap', 'not ok 1 - adds\n');
  const failed = await checksRun(env);
  expect(failed.exitCode).toBe(1);
  expect(['high', 'critical']).toContain(failed.finding.severity);

  const waived = await borrowedTerminal(
    ['waive', failed.finding.id, '--reason', 'flaky', '--human'],
    failed.finding.id,
    env,
  );
  expect(waived.exitCode).toBe(0);
  expect(waived.stdout).toContain('(on this machine, until the change is committed)');

  const list = await runCli(['waive', '--list', '--json'], { cwd: repo.root, env });
  expect(JSON.parse(list.stdout)).toMatchObject([
    {
      findingId: failed.finding.id,
      madeBy: { kind: 'terminal', tty: true, agentMarkers: [] },
      how: 'made at a terminal',
    },
  ]);
  const passed = await checksRun(env);
  expect(passed.exitCode).toBe(0);
  expect(passed.finding.waiver?.how).toBe('made at a terminal');

  await repo.commit('the change, with the waived failure');
  await repo.write('other.txt', 'next change\n');
  expect((await checksRun(env)).exitCode).toBe(1);
  const lapsed = await runCli(['waive', '--list'], { cwd: repo.root, env });
  expect(lapsed.stdout).toMatch(/LAPSED: made on [0-9a-f]{12}, HEAD is now [0-9a-f]{12}/);
  expect(lapsed.stdout).toContain('made at a terminal: flaky');
}, 120_000);
