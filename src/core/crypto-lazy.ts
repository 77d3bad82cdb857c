import type * as Crypto from 'node:crypto';
import { builtinModule } from './builtin-module.js';

let loaded: typeof Crypto | undefined;

/**
 * `node:crypto`, loaded at its first use. A scan worker hashes only its findings (their fingerprints) and the blobs
 * of a history's streamed files: loading the module, with its twenty internal modules compiled from source under the
 * scan's V8 flags, cost each worker's start where most scans find nothing (docs/benchmarks.md, session 31). A
 * require, not an import(): the CommonJS bundles cannot run a dynamic import().
 */
export function crypto(): typeof Crypto {
  loaded ??= builtinModule<typeof Crypto>('node:crypto');
  return loaded;
}
