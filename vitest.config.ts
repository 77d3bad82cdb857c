import { defineConfig } from 'vitest/config';

/**
 * `npm test`: everything but what runs the real agent CLIs (their end-to-end runs, a minute or more, and the flag
 * contract test, whose `--help` calls start each CLI: about 14 s of CPU, Gemini alone 7): those run as their own step
 * (`npm run test:e2e`, vitest.e2e.config.ts) in `.ci/run`.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e-agents/**', 'src/agents/contract.test.ts'],
    globalSetup: ['test/support/global-temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep a little headroom for the git and child processes the tests spawn. A worker keeps its modules
    // from one test file to the next (isolate: false): loading them again for each of 220 files cost about a tenth of
    // the suite. So a test file must leave no module state behind (see docs/testing.md).
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
  },
});
