/**
 * A vitest setup file: gives the tests Node's own setTimeout and clearTimeout back. The worker started with wrapped
 * ones (test/support/rpc-timeout-preload.mjs) only so that vitest's RPC could take them when it loaded; a test's
 * timers are Node's, untouched.
 */
const nodeTimers = (globalThis as Record<symbol, unknown>)[Symbol.for('tollgate.test.nodeTimers')] as
  | { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout }
  | undefined;
if (nodeTimers) {
  globalThis.setTimeout = nodeTimers.setTimeout;
  globalThis.clearTimeout = nodeTimers.clearTimeout;
}
