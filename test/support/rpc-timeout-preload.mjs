// Loaded into each vitest worker before vitest itself (`--import`: WORKER_EXEC_ARGV in test/suites.ts).
//
// A worker asks the main process things over RPC (birpc) and gives up on an answer after a fixed 60 s that no vitest 3
// option changes: "[vitest-worker]: Timeout calling "onTaskUpdate"", an unhandled error that makes the run exit 1 with
// every test passed (vitest-dev/vitest#6479; fixed in vitest 4). It happens when the worker's own event loop is held
// for a minute (a synchronous stretch of a test: seconds of CPU on a quiet machine, a minute at load 20): the answer is
// already in the pipe, but the expired timer runs before the loop reads it. So the RPC timer, when it fires, first lets
// the loop read what arrived (one turn: setImmediate) and gives up only if the answer is still missing; and it waits
// five minutes, not one, for a main process that is itself short of CPU. A dead main process still ends the worker:
// its IPC channel closes, which fails every pending call at once.
//
// birpc takes setTimeout and clearTimeout from globalThis when its module loads: this file lends it wrapped ones for
// that moment, and test/support/node-timers.ts gives the tests back Node's own.
import { promisify } from 'node:util';

/** birpc's default timeout, which vitest 3 passes no option to change. */
export const RPC_TIMEOUT_MS = 60_000;
const PATIENT_RPC_TIMEOUT_MS = 5 * 60_000;
const NODE_TIMERS = Symbol.for('tollgate.test.nodeTimers');

/**
 * setTimeout and clearTimeout that treat birpc's call timer (a callback of `rpcTimeoutMs` that reports through
 * onTimeoutError) patiently: it waits `patientMs`, then one more turn of the event loop for an answer already there.
 */
export function patientRpcTimers(
  node = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout },
  { rpcTimeoutMs = RPC_TIMEOUT_MS, patientMs = PATIENT_RPC_TIMEOUT_MS } = {},
) {
  class PatientTimer {
    cleared = false;
    constructor(callback, args) {
      this.timer = node.setTimeout(() => {
        // Let the event loop read the answers that arrived while it was held, then decide.
        setImmediate(() => {
          if (!this.cleared) callback(...args);
        });
      }, patientMs);
    }
    unref() {
      this.timer.unref();
      return this;
    }
    ref() {
      this.timer.ref();
      return this;
    }
  }
  const isRpcTimer = (callback, delay) =>
    delay === rpcTimeoutMs && typeof callback === 'function' && callback.toString().includes('onTimeoutError');
  function setTimeout(callback, delay, ...args) {
    if (isRpcTimer(callback, delay)) return new PatientTimer(callback, args);
    return node.setTimeout(callback, delay, ...args);
  }
  setTimeout[promisify.custom] = node.setTimeout[promisify.custom];
  function clearTimeout(timer) {
    if (timer instanceof PatientTimer) {
      timer.cleared = true;
      return node.clearTimeout(timer.timer);
    }
    return node.clearTimeout(timer);
  }
  return { setTimeout, clearTimeout };
}

// Once per worker, before vitest loads (a test that imports this file for patientRpcTimers changes nothing).
if (!globalThis[NODE_TIMERS]) {
  globalThis[NODE_TIMERS] = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };
  Object.assign(globalThis, patientRpcTimers());
}
