/**
 * What the fast paths' small bundles get for `node:module` (scripts/bundle-lib.mjs puts this module in its place
 * there, and only there). They are CommonJS, run with a `require` of their own that loads any of Node's built-in
 * modules, and all they take from `node:module` is `createRequire`, for such a module on a Node without
 * `process.getBuiltinModule` (src/core/builtin-module.ts). Node's public `module` brings the ES module loader and
 * source maps with it: 0.3 ms of CPU and 15 page faults on each start that loaded it for nothing (docs/benchmarks.md,
 * "The fast paths' built-in modules and bundles"). A name the small bundles import and this module lacks fails the
 * build.
 */
export function createRequire(_from: string | URL): NodeJS.Require {
  return require;
}
