import type * as ChildProcess from 'node:child_process';
import { builtinModule } from './builtin-module.js';

let loaded: typeof ChildProcess | undefined;

/**
 * `node:child_process`, loaded at the first child started through it. The fast paths' small bundles hold modules
 * that start children only off their answer's way (the snapshot's early `git add`, a hook payload's cwd outside the
 * repository): loading it, with the sockets and streams it brings, cost each of them about 8 ms of CPU where it is
 * not needed. A require, not an import(): the small bundles are compiled
 * by bin/tollgate.cjs, where a dynamic import() cannot run.
 */
export function childProcess(): typeof ChildProcess {
  loaded ??= builtinModule<typeof ChildProcess>('node:child_process');
  return loaded;
}
