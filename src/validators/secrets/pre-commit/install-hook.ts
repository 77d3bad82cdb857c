import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gitPath } from './git-paths.js';

/**
 * `tollgate hook install pre-commit`: writes `.git/hooks/pre-commit` (or the `core.hooksPath` one) when there is none,
 * updates it when it is ours, and otherwise changes nothing and says which line to add: a hook manager (husky,
 * lefthook, the pre-commit framework) or someone's own hook is never overwritten.
 */
export const HOOK_COMMAND = 'npx --no-install tollgate hook pre-commit';
const MARKER = '# tollgate pre-commit hook';

export type InstallOutcome =
  | { status: 'installed' | 'updated'; path: string }
  | { status: 'manual'; path: string; reason: string; line: string };

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

export async function installPreCommitHook(repoRoot: string, env?: NodeJS.ProcessEnv): Promise<InstallOutcome> {
  const hookPath = await gitPath(repoRoot, 'hooks/pre-commit', env);
  const managers: Array<[string, string]> = [
    ['.husky', `husky: add "${HOOK_COMMAND}" to .husky/pre-commit`],
    ['lefthook.yml', `lefthook: add under pre-commit.commands: tollgate: { run: ${HOOK_COMMAND} }`],
    ['.lefthook.yml', `lefthook: add under pre-commit.commands: tollgate: { run: ${HOOK_COMMAND} }`],
    [
      '.pre-commit-config.yaml',
      `pre-commit framework: add a local hook with entry: ${HOOK_COMMAND}, language: system, pass_filenames: false`,
    ],
  ];
  for (const [file, reason] of managers) {
    if (await exists(join(repoRoot, file))) return { status: 'manual', path: hookPath, reason, line: HOOK_COMMAND };
  }
  const current = await readFile(hookPath, 'utf8').catch(() => null);
  if (current !== null && !current.includes(MARKER)) {
    return {
      status: 'manual',
      path: hookPath,
      reason: `${hookPath} already exists and is not tollgate's: add the line yourself`,
      line: HOOK_COMMAND,
    };
  }
  await mkdir(dirname(hookPath), { recursive: true });
  await writeFile(
    hookPath,
    `#!/bin/sh\n${MARKER} (written by tollgate hook install pre-commit)\nexec ${HOOK_COMMAND}\n`,
  );
  await chmod(hookPath, 0o755);
  return { status: current === null ? 'installed' : 'updated', path: hookPath };
}
