import { defineConfig } from 'vitest/config';

/**
 * `npm test`: everything but the end-to-end runs of the real agent CLIs, which take a minute or more and run as their
 * own step (`npm run test:e2e`, vitest.e2e.config.ts) in `.ci/run`.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/e2e-agents/**'],
    globalSetup: ['test/support/global-temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three workers on two cores: many tests wait on the git, CLI and fake-agent processes they spawn, and a third
    // worker fills those waits (fresh-clone CI: 288 s against 320 s with two). minForks equals maxForks: with fewer,
    // tinypool stops idle workers near the end and may report "Terminating worker thread" as an unhandled rejection
    // after every test has passed (vitest-dev/vitest#8564). A worker keeps its modules
    // from one test file to the next (isolate: false): loading them again for each of 220 files cost about a tenth of
    // the suite. So a test file must leave no module state behind (see docs/testing.md).
    poolOptions: { forks: { maxForks: 3, minForks: 3, isolate: false } },
  },
});
