import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { registriesWith } from '../../../test/support/registries.js';
import { staticChangeSet } from '../../../test/support/static-change-set.js';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { buildConfigSchema, type TollgateConfig } from '../../core/config/schema.js';
import { formatDuration } from '../../core/config/units.js';
import { discardEvents } from '../../core/pipeline/event-sink.js';
import { executeTool } from '../../core/pipeline/execute-tool.js';
import { runProcess } from '../../core/process.js';
import { checksTool } from './index.js';
import { selectChecks } from './run-checks.js';

const parseConfig = (raw: unknown) => buildConfigSchema(registriesWith([checksTool])).parse(raw) as TollgateConfig;

describe('checks validator', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir('tollgate-checks-');
  });
  afterEach(() => removeDir(dir));

  async function runWith(
    checks: unknown[],
    changed: Record<string, string> = { 'src/a.ts': 'x\n' },
    budgetMs = 30_000,
  ) {
    return executeTool(
      { toolName: 'checks' },
      {
        repoRoot: dir,
        changeSet: staticChangeSet(dir, changed),
        config: parseConfig({ checks }),
        tools: [checksTool],
        events: discardEvents,
        runDir: join(dir, '.tollgate', 'runs', 'r1'),
        deadline: Date.now() + budgetMs,
      },
    );
  }

  test('passes when every check exits 0, and keeps each full log in the run folder', async () => {
    const execution = await runWith([
      { name: 'unit', run: 'echo all good' },
      { name: 'lint', run: 'true' },
    ]);
    expect(execution.result).toMatchObject({ status: 'passed', summary: '2 check(s) passed', findings: [] });
    expect(readFileSync(join(dir, '.tollgate/runs/r1/checks/unit.log'), 'utf8')).toBe('all good\n');
  });

  test('a failing check is a high finding with the tail of its output and a stable id', async () => {
    const check = { name: 'unit tests', run: 'echo "expected 9, got 10"; exit 1' };
    const first = await runWith([check]);
    const second = await runWith([check]);
    expect(first.result.status).toBe('failed');
    expect(first.result.summary).toBe('1 of 1 check(s) failed; fix them and run tollgate again');
    const [finding] = first.result.findings;
    expect(finding).toMatchObject({
      severity: 'high',
      title: 'check "unit tests" failed (exit 1)',
      ruleId: 'unit tests',
    });
    expect(finding?.body).toContain('expected 9, got 10');
    expect(finding?.body).toContain('.tollgate/runs/r1/checks/unit_tests.log');
    expect(second.result.findings[0]?.id).toBe(finding?.id);
  });

  test('a check with more output than the capture keeps its true tail and its early failure lines', async () => {
    // 8,000 lines (~400 KiB, past the 256 KiB capture): a failure near the start, passing lines after it.
    const script =
      'echo "not ok 2 - subtracts"; i=0; while [ $i -lt 8000 ]; do echo "ok $i - some passing test name here padded out"; i=$((i+1)); done; echo "# fail 1"; exit 1';
    const execution = await runWith([{ name: 'node tests', run: script }]);
    const [finding] = execution.result.findings;
    expect(finding?.body).toContain('not ok 2 - subtracts');
    expect(finding?.body).toMatch(
      /ok 7999 - some passing test name here padded out\n# fail 1\n— `echo .*` exited 1; full log: \S+node_tests\.log$/,
    );
    expect(readFileSync(join(dir, '.tollgate/runs/r1/checks/node_tests.log'), 'utf8')).toContain('# fail 1');
  });

  test('a check that leaves a detached process holding its output times out on time and names the survivor', async () => {
    // The survivor must be out of the group before the check times out: scaled, a loaded machine starts it late.
    const timeoutMs = timeBudget(1000);
    // It outlives the check by far (its timeout, the kill's grace, the drain), so it still runs when the check returns.
    const survivorSeconds = 30 + 2 * Math.ceil(timeoutMs / 1000);
    const marker = `sleep ${survivorSeconds}.${process.pid}${Date.now() % 100000}`;
    // Written by the survivor once it has left the group: no race with the group kill at exit.
    const ready = join(tmpdir(), `survivor-ready-${process.pid}-${Date.now()}`);
    try {
      const execution = await runWith(
        [
          {
            name: 'daemon',
            run: `setsid sh -c 'touch ${ready}; exec ${marker}' & while [ ! -f ${ready} ]; do sleep 0.01; done; sleep ${survivorSeconds}`,
            timeout: `${timeoutMs}ms`,
          },
        ],
        undefined,
        timeBudget(30_000),
      );
      expect(execution.result.status).toBe('failed');
      expect(execution.result.summary).toContain('daemon left a detached process running');
      // On time: returned while the survivor still runs (waiting for it to let go of the output would outlast it).
      expect((await runProcess('pgrep', ['-f', marker], { cwd: process.cwd() })).exitCode).toBe(0);
    } finally {
      await runProcess('pkill', ['-f', marker], { cwd: process.cwd() });
      rmSync(ready, { force: true });
    }
  });

  test('a check with `paths` runs only when a changed file matches', async () => {
    const execution = await runWith(
      [
        { name: 'docs', run: 'exit 1', paths: ['docs/**'] },
        { name: 'ts', run: 'true', paths: ['src/**/*.ts'] },
      ],
      { 'src/a.ts': 'x\n' },
    );
    expect(execution.result).toMatchObject({
      status: 'passed',
      summary: '1 check(s) passed (1 skipped: no changed file matches their `paths`)',
    });
  });

  test('a check that outlives its timeout is killed with its process group and reported', async () => {
    const pidFile = join(dir, 'pid');
    // The shell must have written the pid before the timeout: scaled, as a loaded machine starts it late.
    const timeoutMs = timeBudget(300);
    const execution = await runWith([
      { name: 'hang', run: `sleep 30 & echo $! > '${pidFile}'; wait`, timeout: `${timeoutMs}ms` },
    ]);
    expect(execution.result.status).toBe('failed');
    expect(execution.result.findings[0]?.title).toBe(`check "hang" timed out after ${formatDuration(timeoutMs)}`);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // Gone or a zombie; a killed process can take a moment to end on a busy machine.
    const ended = () => {
      const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
      return stat === '' || stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
    };
    const deadline = Date.now() + timeBudget(2000);
    while (!ended() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    expect(ended()).toBe(true);
  });

  test('the run budget running out mid-check is a timeout that says not to rerun', async () => {
    const execution = await runWith([{ name: 'slow', run: 'sleep 30' }], undefined, 300);
    expect(execution.result.status).toBe('timeout');
    expect(execution.result.summary).toMatch(/do not rerun/);
  });

  test('a check whose cwd does not exist is reported, not thrown', async () => {
    const execution = await runWith([{ name: 'sub', run: 'true', cwd: 'packages/missing' }]);
    expect(execution.result.findings[0]).toMatchObject({
      title: 'check "sub" could not start',
      body: 'cwd "packages/missing" is not a directory',
    });
  });

  test('checks get their env and run from their cwd', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'pkg'));
    const execution = await runWith([
      {
        name: 'env',
        run: 'test "$GREETING" = hi && test "$(basename "$PWD")" = pkg',
        env: { GREETING: 'hi' },
        cwd: 'pkg',
      },
    ]);
    expect(execution.result.status).toBe('passed');
  });

  test('no checks configured passes and says how to add some', async () => {
    const execution = await runWith([]);
    expect(execution.result.summary).toBe(
      'no checks configured; add `checks:` to tollgate.config.yaml to run your tests and linters',
    );
  });

  test.each([
    [['src/**'], ['src/a/b.ts'], true],
    [['*.md'], ['docs/x.md'], false],
    [['**/*.md'], ['docs/x.md'], true],
    [['.github/**'], ['.github/workflows/ci.yml'], true],
  ])('paths %j against %j selects: %s', (paths, changed, selected) => {
    const { run } = selectChecks([{ name: 'c', run: 'true', paths, timeout: 1000, env: {}, cwd: '.' }], changed);
    expect(run.length === 1).toBe(selected);
  });
});
