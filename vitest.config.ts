import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: keep a little headroom for the git and child processes the tests spawn.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
