import { defineConfig } from 'vitest/config';

/**
 * The tests `npm run mutation` (stryker.config.mjs) runs against each mutant of the gate's decision core: the unit
 * tests of those files, in-process (no built bundle, so a mutant is what they exercise), kept fast.
 */
export default defineConfig({
  test: {
    include: [
      'src/integrations/hooks/stop-decision.test.ts',
      'src/core/run/recheck-tree.test.ts',
      'src/core/run/execute-selected.test.ts',
      'src/core/run/work-tree-done.test.ts',
      'src/core/state/waivers.test.ts',
      'src/core/state/waiver-rules.test.ts',
      'src/secrets/suppressions.test.ts',
    ],
    globalSetup: ['test/support/global-temp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
