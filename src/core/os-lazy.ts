import type * as Os from 'node:os';
import { builtinModule } from './builtin-module.js';

let loaded: typeof Os | undefined;

/**
 * `node:os`, loaded at its first use. The stop hook's small bundle needs it only off its answer's way (a temporary
 * folder when git runs, the home folder when HOME is unset): loading it cost each stop about 0.3 ms of CPU. A
 * require, not an import(): the small bundles are compiled by bin/tollgate.cjs, where a dynamic import() cannot run.
 */
export function os(): typeof Os {
  loaded ??= builtinModule<typeof Os>('node:os');
  return loaded;
}

/** The null device, as `node:os`'s `devNull` spells it, without loading it. */
export const DEV_NULL = process.platform === 'win32' ? '\\\\.\\nul' : '/dev/null';
