import { spawnSync } from 'node:child_process';

/**
 * Which suites run in which step (docs/testing.md, "Where the tests are"). `npm test` stays under five minutes on a
 * quiet two-core machine; the slow end-to-end suites run as their own steps of `.ci/run`:
 * - the real agent CLIs (`npm run test:e2e`, vitest.e2e.config.ts);
 * - the built CLI's scenario suites (`npm run test:scenarios`, vitest.scenarios.config.ts): whole sessions through
 *   `bin/tollgate.cjs` on real repositories, each case several runs of the CLI, and the gate-invariant property;
 * - the installed package on Node 22 and 24 (test/node-versions/run.sh).
 * `npm test` keeps the installed package on this Node (every command through `bin/tollgate.cjs`), and the unit and
 * in-process tests (property tests at fewer cases: test/support/property-runs.ts).
 */
export const REAL_AGENT_SUITES = ['test/e2e-agents/**/*.test.ts', 'src/agents/contract.test.ts'];

export const SCENARIO_SUITES = [
  'test/cli/**/*.test.ts',
  'test/integrations/github-action.test.ts',
  // The stop hook's sessions through the built CLI, and the docs' workflow examples run by the runner harness.
  'src/integrations/hooks/stop.test.ts',
  'src/integrations/hooks/stop-reason.test.ts',
  'src/integrations/hooks/stop-fast-answer.test.ts',
  'test/workflows/examples.test.ts',
  // Real programs of others end to end: the pre-commit framework from a clean cache, the HTML report in chromium.
  'test/integrations/pre-commit-framework.test.ts',
  'test/report/html-browser.test.ts',
  // Every step sequence an agent could take, each a few runs of the gate: at its full count of cases there only.
  'src/core/run/gate-invariant.property.test.ts',
];

/**
 * Property tests run in both steps: fewer random cases in `npm test` (those that read `propertyRuns`), all of them in
 * the scenario step, which sets PROPERTY_RUNS_ENV to `full`.
 */
export const PROPERTY_SUITES = ['src/**/*.property.test.ts'];
export const PROPERTY_RUNS_ENV = 'TOLLGATE_PROPERTY_RUNS';

/**
 * How much slower than a quiet machine this one starts a process now, at least 1: test and hook time budgets are
 * multiplied by it, so a loaded machine gets more time instead of failing (slowness is not a test failure either).
 * Measured as the fastest of three `node -e 0` starts against 80 ms, the quiet figure on the two-core machines CI uses.
 */
export function loadScale(): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return Math.min(10, Math.max(1, fastest / 80));
}

/**
 * Node options of every vitest worker: vitest's RPC timer reads the answers that arrived while a test held the worker's
 * event loop before it gives up, instead of failing a run whose tests all passed (test/support/rpc-timeout-preload.mjs).
 */
export const WORKER_EXEC_ARGV = ['--import', new URL('./support/rpc-timeout-preload.mjs', import.meta.url).href];
/**
 * Setup files of every vitest config: the tests get Node's own timers back (node-timers.ts), and with
 * TOLLGATE_TEST_CPU_LOG set each file's CPU, children included, is recorded (cpu-per-file.ts, docs/testing.md).
 */
export const WORKER_SETUP_FILES = ['test/support/node-timers.ts', 'test/support/cpu-per-file.ts'];
