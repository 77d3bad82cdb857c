import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Temp directories and a private HOME for tests. Nothing here reads or writes the developer's real $HOME or git config.
 */

/** A fresh directory under os.tmpdir() (symlinks resolved, so paths compare equal to what git prints). */
export async function tempDir(prefix = 'tollgate-'): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** Removes a directory made by `tempDir` (and everything in it); never fails the test on cleanup. */
export async function removeDir(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
}

export interface TempHome {
  /** The private HOME directory. */
  home: string;
  /**
   * `process.env` minus every `GIT_*` variable (a test started from a git hook would otherwise inherit `GIT_DIR` or
   * `GIT_INDEX_FILE`), plus a private HOME, `GIT_CONFIG_GLOBAL` (a temp file with user.name/email) and
   * `GIT_CONFIG_NOSYSTEM=1`. Pass it to every child process the test starts.
   */
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

const GLOBAL_GIT_CONFIG = `[user]
\tname = Tollgate Test
\temail = test@tollgate.invalid
[init]
\tdefaultBranch = main
[commit]
\tgpgsign = false
[tag]
\tgpgsign = false
[core]
\tautocrlf = false
[protocol "file"]
\t# tests add local repositories as submodules (blocked by default since git 2.38.1)
\tallow = always
[maintenance]
\t# commit, fetch and merge would each start \`git maintenance run --auto\`: a process per call, for repositories that
\t# live for seconds
\tauto = false
[gc]
\tauto = 0
`;

export async function createTempHome(): Promise<TempHome> {
  const home = await tempDir('tollgate-home-');
  const gitConfig = join(home, '.gitconfig');
  await writeFile(gitConfig, GLOBAL_GIT_CONFIG);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_')) env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_GLOBAL: gitConfig,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
  });
  return { home, env, cleanup: () => removeDir(home) };
}

/**
 * Points this test process's own environment at a private HOME and git config (for code under test that spawns git
 * with `process.env`, like the change set). Call in `beforeAll`; await the returned function in `afterAll`.
 */
export async function isolateProcessEnv(): Promise<() => Promise<void>> {
  const tempHome = await createTempHome();
  const saved = { ...process.env };
  for (const key of Object.keys(process.env)) {
    if (key.startsWith('GIT_')) delete process.env[key];
  }
  Object.assign(process.env, tempHome.env);
  return async () => {
    for (const key of Object.keys(process.env)) {
      if (!(key in saved)) delete process.env[key];
    }
    Object.assign(process.env, saved);
    await tempHome.cleanup();
  };
}
