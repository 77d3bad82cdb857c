import { defineConfig } from 'vitest/config';

/** The real agent CLIs (Claude Code, Gemini CLI, Codex) against scripted model servers on 127.0.0.1. */
export default defineConfig({
  test: {
    include: ['test/e2e-agents/**/*.test.ts'],
    globalSetup: ['test/support/global-temp-root.ts'],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
  },
});
