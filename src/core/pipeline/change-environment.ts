import { writeFile } from 'node:fs/promises';

/** What a command from config (a project check, an analyzer) learns about the change. */
export interface ChangeEnvironment {
  /** The base commit; empty in a repository without commits. */
  TOLLGATE_BASE: string;
  /** The path of a file listing the changed paths, each ended by a NUL byte. */
  TOLLGATE_CHANGED_FILES: string;
}

/**
 * Writes `paths` to `listPath` (0600), each ended by a NUL byte as `git diff -z` writes and `xargs -0` reads them,
 * so a list of any length and any file name (git allows a newline in one) fits, and returns the variables that name
 * it and the base. One format for every command tollgate starts from config.
 */
export async function changeEnvironment(
  listPath: string,
  base: string | null,
  paths: readonly string[],
): Promise<ChangeEnvironment> {
  await writeFile(listPath, paths.map((path) => `${path}\0`).join(''), { mode: 0o600 });
  return { TOLLGATE_BASE: base ?? '', TOLLGATE_CHANGED_FILES: listPath };
}
