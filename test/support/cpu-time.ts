/**
 * Milliseconds of CPU this process spends in `work`. Timing tests compare these, not wall clocks: on a busy machine
 * (the suite on two cores, other jobs) the process waits for a core, which adds to wall time but not to its CPU time.
 */
export function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
