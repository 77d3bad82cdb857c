/**
 * `npm run mutation`: mutation testing of the gate's decision core (docs/testing.md). Every mutant that survives is a
 * change to how the gate decides (pass or block, waive or not, suppress or not) that no test notices.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'src/integrations/hooks/stop-decision.ts',
    'src/core/run/recheck-tree.ts',
    'src/core/run/execute-selected.ts',
    'src/core/state/waivers.ts',
    'src/secrets/suppressions.ts',
  ],
  // Each mutant runs only the tests that reach its code.
  coverageAnalysis: 'perTest',
  // Two cores: one mutant at a time per core.
  concurrency: 2,
  timeoutMS: 30_000,
  thresholds: { high: 95, low: 90, break: 90 },
  // json: scripts/mutation-scores.mjs reads it to hold each file, not only their sum, to the break threshold.
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // Committed: `--incremental` (as .ci/run runs it) retests only the mutants whose code or tests changed since.
  incrementalFile: '.ci/mutation-incremental.json',
  // The sandbox is a copy of the tree the tests need: no build output, benchmarks or agent CLIs.
  ignorePatterns: ['dist', 'bench', 'reports', 'coverage', 'test/.agent-clis', 'test/e2e-agents', '.tollgate'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
