import { afterAll, afterEach, beforeAll } from 'vitest';
import { createTempRepo, isolateProcessEnv, type TempRepo } from './git-repo.js';

/**
 * For test files whose code under test runs git with `process.env` (the change set): points this test process at a
 * private HOME and git config for the whole file, and removes every repository made with the returned `repoWith`
 * after each test (with anything given to `onCleanup`). Call once at the top level of a test file.
 */
export function useIsolatedRepos(): {
  repoWith: (files?: Record<string, string | Buffer>, options?: { commit?: boolean }) => Promise<TempRepo>;
  /** Runs `cleanup` after the current test, with the repositories. */
  onCleanup: (cleanup: () => Promise<void>) => void;
} {
  let restoreEnv: () => Promise<void> = async () => {};
  beforeAll(async () => {
    restoreEnv = await isolateProcessEnv();
  });
  afterAll(() => restoreEnv());
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  return {
    repoWith: async (files = {}, options = {}) => {
      const repo = await createTempRepo({ files, ...options });
      cleanups.push(repo.cleanup);
      return repo;
    },
    onCleanup: (cleanup) => {
      cleanups.push(cleanup);
    },
  };
}
