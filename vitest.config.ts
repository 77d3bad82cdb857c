import { defineConfig } from 'vitest/config';
import { loadScale, REAL_AGENT_SUITES, SCENARIO_SUITES, WORKER_EXEC_ARGV, WORKER_SETUP_FILES } from './test/suites.js';
import { LOAD_SCALE_ENV } from './test/support/time-budget.js';

/**
 * `npm test`: everything but the slow end-to-end suites, which run as their own steps of `.ci/run` (test/suites.ts
 * says which, and why).
 */
const scale = loadScale();
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...REAL_AGENT_SUITES, ...SCENARIO_SUITES],
    globalSetup: ['test/support/global-temp-root.ts'],
    setupFiles: WORKER_SETUP_FILES,
    // A loaded machine gets longer budgets, not failures (test/suites.ts: loadScale). Two minutes for a file's slowest
    // tests (a few CLI runs); a test needs no timeout of its own below that, and one above it is a timeBudget.
    env: { [LOAD_SCALE_ENV]: String(scale) },
    testTimeout: 120_000 * scale,
    hookTimeout: 120_000 * scale,
    pool: 'forks',
    // Four workers on two cores: the tests wait on their children (git, the CLI) much of the time, and on a loaded
    // machine the suite's share of the CPU grows with how many of its processes can run (docs/testing.md: beside 8
    // processes that each burn a core, 2 spinning processes got 0.08 of a core, 4 got 0.15). All four start at once and
    // stay (no worker ended half-way through the run). A worker keeps its modules from one test file to the next
    // (isolate: false): loading them again for each of 220 files cost about a tenth of the suite. So a test file must
    // leave no module state behind (see docs/testing.md).
    poolOptions: { forks: { maxForks: 4, minForks: 4, isolate: false, execArgv: WORKER_EXEC_ARGV } },
  },
});
