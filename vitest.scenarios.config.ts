import { defineConfig } from 'vitest/config';
import {
  loadScale,
  PROPERTY_RUNS_ENV,
  PROPERTY_SUITES,
  SCENARIO_SUITES,
  WORKER_EXEC_ARGV,
  WORKER_SETUP_FILES,
} from './test/suites.js';
import { LOAD_SCALE_ENV } from './test/support/time-budget.js';

/**
 * `npm run test:scenarios`: the built CLI's scenario suites (whole sessions through `bin/tollgate.cjs` on real
 * repositories), and every property test at its full number of cases. A step of its own in `.ci/run`, after
 * `npm test` (test/suites.ts).
 */
const scale = loadScale();
export default defineConfig({
  test: {
    include: [...SCENARIO_SUITES, ...PROPERTY_SUITES],
    globalSetup: ['test/support/global-temp-root.ts'],
    setupFiles: WORKER_SETUP_FILES,
    env: { [PROPERTY_RUNS_ENV]: 'full', [LOAD_SCALE_ENV]: String(scale) },
    testTimeout: 60_000 * scale,
    hookTimeout: 60_000 * scale,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false, execArgv: WORKER_EXEC_ARGV } },
  },
});
