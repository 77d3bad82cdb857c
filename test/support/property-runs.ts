import { PROPERTY_RUNS_ENV } from '../suites.js';

/**
 * The number of random cases a property test runs: `quick` in `npm test`, `full` in the scenario step (which sets
 * TOLLGATE_PROPERTY_RUNS=full), or an exact count from TOLLGATE_PROPERTY_RUNS=<n> when replaying by hand.
 */
export function propertyRuns(quick: number, full: number): number {
  const given = process.env[PROPERTY_RUNS_ENV];
  if (given === undefined || given === '') return quick;
  if (given === 'full') return full;
  const runs = Number(given);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`${PROPERTY_RUNS_ENV}: expected "full" or a whole number of cases, got ${JSON.stringify(given)}`);
  }
  return runs;
}
