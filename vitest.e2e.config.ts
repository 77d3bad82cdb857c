import { defineConfig } from 'vitest/config';
import { loadScale, REAL_AGENT_SUITES, WORKER_EXEC_ARGV, WORKER_SETUP_FILES } from './test/suites.js';
import { LOAD_SCALE_ENV } from './test/support/time-budget.js';

/**
 * The real agent CLIs: end to end (Claude Code, Gemini CLI, Codex) against scripted model servers on 127.0.0.1, and the
 * flag contract of every pinned CLI (src/agents/contract.test.ts, each CLI's own `--help`), and the Copilot CLI plugin
 * installed by the real `copilot plugin install`.
 */
const scale = loadScale();
export default defineConfig({
  test: {
    include: REAL_AGENT_SUITES,
    globalSetup: ['test/support/global-temp-root.ts'],
    setupFiles: WORKER_SETUP_FILES,
    env: { [LOAD_SCALE_ENV]: String(scale) },
    testTimeout: 180_000 * scale,
    hookTimeout: 240_000 * scale,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 1, minForks: 1, execArgv: WORKER_EXEC_ARGV } },
  },
});
