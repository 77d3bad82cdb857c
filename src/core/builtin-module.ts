import { createRequire } from 'node:module';

/**
 * One of Node's built-in modules (`node:os`, `node:net`...), loaded now: the modules that load one only where it is
 * needed call this instead of importing it. `process.getBuiltinModule` (Node 20.16 and later) hands it over at once;
 * before it, a require made for this module does. That require is built from this module's URL, which in the
 * CommonJS bundles is made from the file's path on first use (bin/tollgate.cjs compiles them; a dynamic import()
 * cannot run there): the URL's making and parsing cost a fast path about 1.5 ms of CPU, three times the module's own
 * load (docs/benchmarks.md, session 25, helper "repeat").
 */
export function builtinModule<T>(name: `node:${string}`): T {
  const direct = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  return (typeof direct === 'function' ? direct(name) : createRequire(import.meta.url)(name)) as T;
}
