/**
 * A time budget for work a test expects to finish (a TLS request to a local fake, a child that answers), scaled by the
 * load factor the vitest config measured at start (`loadScale` in test/suites.ts): a loaded machine gets more time,
 * never a failure. Budgets that are the thing under test (a hang that must be cut off) stay as they are.
 */
export const LOAD_SCALE_ENV = 'TOLLGATE_TEST_LOAD_SCALE';

export function timeBudget(quietMs: number): number {
  const scale = Number(process.env[LOAD_SCALE_ENV]);
  return Math.round(quietMs * (Number.isFinite(scale) && scale >= 1 ? scale : 1));
}
