import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The real git's path, as the shell finds it on PATH. */
export function realGitPath(): string {
  return execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
}

/**
 * Writes a `git` into `dir` (put it first on PATH) that appends one line per call to `log`, then runs the real git
 * with the same arguments. `line` is shell text, expanded in each call (`$*` the arguments, `$1` the command,
 * `${GLIBC_TUNABLES:-unset}` a variable).
 */
export function writeLoggingGit(dir: string, log: string, line = '$*'): void {
  writeFileSync(log, '');
  writeFileSync(join(dir, 'git'), `#!/bin/sh\necho "${line}" >> '${log}'\nexec '${realGitPath()}' "$@"\n`);
  chmodSync(join(dir, 'git'), 0o755);
}
