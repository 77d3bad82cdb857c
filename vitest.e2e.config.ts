import { defineConfig } from 'vitest/config';

/**
 * The real agent CLIs: end to end (Claude Code, Gemini CLI, Codex) against scripted model servers on 127.0.0.1, and the
 * flag contract of every pinned CLI (src/agents/contract.test.ts, each CLI's own `--help`), and the Copilot CLI plugin
 * installed by the real `copilot plugin install`.
 */
export default defineConfig({
  test: {
    include: ['test/e2e-agents/**/*.test.ts', 'src/agents/contract.test.ts'],
    globalSetup: ['test/support/global-temp-root.ts'],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
  },
});
