import { afterEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * A waiver that needs a person is given by a person: at a terminal (a real pseudo-terminal here, through util-linux
 * `script`), typing the finding's id. And a check waiver covers the failure it was given for, not the next one.
 */
let repo: TempRepo;
afterEach(() => repo.cleanup());

const AGENT_MARKERS = [
  'CLAUDECODE',
  'GEMINI_CLI',
  'TOLLGATE_ACTIVE',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
];

function personEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...env, TOLLGATE_DEBUG: '' };
  for (const name of AGENT_MARKERS) delete clean[name];
  return clean;
}

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs the built CLI on a pseudo-terminal, typing `typed` at its prompt. */
function atTerminal(args: string[], typed: string, env: NodeJS.ProcessEnv) {
  const command = [process.execPath, CLI_PATH, ...args].map(shellQuote).join(' ');
  return runProcess('script', ['-q', '-e', '-c', command, '/dev/null'], {
    cwd: repo.root,
    env,
    input: `${typed}\n`,
    timeoutMs: 30_000,
  });
}

async function failingCheckFinding(env: NodeJS.ProcessEnv): Promise<{ id: string; exitCode: number | null }> {
  const run = await runCli(['run', '--only', 'checks', '--format', 'json'], { cwd: repo.root, env });
  const checks = JSON.parse(run.stdout).tools.find((tool: { name: string }) => tool.name === 'checks');
  return { id: checks.findings[0]?.id, exitCode: run.exitCode };
}

describe('waivers that need a person', () => {
  test('typed at a terminal they hold, and only for the failure they were given for', async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml':
          'checks:\n  - name: unit tests\n    run: cat result.tap; grep -q "^not ok" result.tap && exit 1; exit 0\n',
        'result.tap': 'ok 1 - adds\n',
      },
    });
    const env = personEnv(repo.env);
    await repo.write('result.tap', 'ok 1 - adds\nnot ok 2 - subtracts (took 12ms)\n');
    const first = await failingCheckFinding(env);
    expect(first.exitCode).toBe(1);

    const wrong = await atTerminal(['waive', first.id, '--reason', 'flaky', '--human'], 'not-the-id', env);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stdout).toContain('the finding id was not confirmed; nothing was waived');

    const typed = await atTerminal(['waive', first.id, '--reason', 'flaky on CI', '--human'], first.id, env);
    expect(typed.stdout).toContain(`waived ${first.id}`);
    expect(typed.exitCode).toBe(0);

    // The same failure again (other timings): still the same finding, still waived.
    await repo.write('result.tap', 'ok 1 - adds\nnot ok 2 - subtracts (took 40ms)\n');
    const same = await failingCheckFinding(env);
    expect(same.id).toBe(first.id);
    expect(same.exitCode).toBe(0);

    // A different regression of the same check is a new finding: the waiver does not cover it.
    await repo.write('result.tap', 'not ok 1 - adds\nok 2 - subtracts\n');
    const other = await failingCheckFinding(env);
    expect(other.id).not.toBe(first.id);
    expect(other.exitCode).toBe(1);
  });
});
