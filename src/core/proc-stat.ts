import { readdirSync, readFileSync } from 'node:fs';

/**
 * Linux's `/proc/<pid>/stat`, the one place tollgate learns about processes it did not start itself (a child's own
 * children). Off Linux every answer is null and callers fall back to what they can do without it.
 */

/**
 * The fields after the parenthesised command (which may hold spaces): index 0 is field 3 (state), 2 is field 5 (process
 * group), 19 is field 22 (start time in clock ticks since boot). Null when the process is gone or off Linux.
 */
export function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Every process id `/proc` lists, or null when it cannot be read (off Linux). */
export function allPids(): number[] | null {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return null;
  }
}

/** A zombie (`Z`, killed and not yet reaped by its parent) or a dead task (`X`) runs and writes nothing more. */
function runs(fields: readonly string[]): boolean {
  return fields[0] !== 'Z' && fields[0] !== 'X';
}

/** Whether process `pid` exists and still runs (false off Linux). */
export function isRunning(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== null && runs(fields);
}

/** The processes in any of `groups` that still run. Null off Linux. */
export function runningMembers(groups: ReadonlySet<number>): number[] | null {
  const pids = allPids();
  if (pids === null) return null;
  return pids.filter((pid) => {
    const fields = statFields(pid);
    return fields !== null && groups.has(Number(fields[2])) && runs(fields);
  });
}
