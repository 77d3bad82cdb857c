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

/**
 * The hook script: the tollgate that wrote the hook first (an absolute path, so a global install under any prefix is
 * found), then `tollgate` on PATH, then the project's own through npx. When none is there the commit is refused with
 * a message that says so, rather than passing unscanned.
 */
function hookScript(tollgateBin: string | null): string {
  const quoted = tollgateBin ? `'${tollgateBin.replace(/'/g, `'\\''`)}'` : "''";
  return `#!/bin/sh
${MARKER} (written by tollgate hook install pre-commit)
tollgate_bin=${quoted}
if [ -n "$tollgate_bin" ] && [ -x "$tollgate_bin" ]; then exec "$tollgate_bin" hook pre-commit; fi
if command -v tollgate >/dev/null 2>&1; then exec tollgate hook pre-commit; fi
if command -v npx >/dev/null 2>&1 && npx --no-install tollgate --version >/dev/null 2>&1; then
  exec ${HOOK_COMMAND}
fi
echo "tollgate pre-commit hook: tollgate was not found (not at \${tollgate_bin:-its install path}, not on PATH, not in this project's node_modules); install it again, then rerun 'tollgate hook install pre-commit'" >&2
exit 1
`;
}

export async function installPreCommitHook(
  repoRoot: string,
  env?: NodeJS.ProcessEnv,
  tollgateBin: string | null = null,
): Promise<InstallOutcome> {
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
  await writeFile(hookPath, hookScript(tollgateBin));
  await chmod(hookPath, 0o755);
  return { status: current === null ? 'installed' : 'updated', path: hookPath };
}
