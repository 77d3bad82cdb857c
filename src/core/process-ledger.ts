import { mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { allPids, statFields } from './proc-stat.js';
import { writeFileAtomicSync } from './state/atomic-write.js';

/**
 * The process groups a run's tools started (checks, analyzers, agent CLIs), on disk while they run:
 * `.tollgate/children/<pid>.json`, one file per tollgate process. A run killed with SIGKILL cannot take its children
 * down; the next run finds the file of a process that is gone and stops the groups it left (`reapLeftoverGroups`),
 * so a forgotten test server or watcher does not hold ports and CPU for ever.
 */

const entrySchema = z.object({
  pgid: z.number().int().positive(),
  /** The leader's start time in clock ticks since boot (Linux `/proc/<pid>/stat`): tells a reused id apart. */
  startTicks: z.number().int().nonnegative().nullable(),
  command: z.string(),
});
const ledgerFileSchema = z.object({ owner: z.number().int().positive(), groups: z.array(entrySchema) });
type Entry = z.output<typeof entrySchema>;

export interface ProcessLedger {
  started(pgid: number, command: string): void;
  ended(pgid: number): void;
}

const CHILDREN_DIR = join('.tollgate', 'children');

function startTicksOf(pid: number): number | null {
  const fields = statFields(pid);
  const ticks = fields ? Number(fields[19]) : Number.NaN;
  return Number.isFinite(ticks) ? ticks : null;
}

const ledgers = new Map<string, ProcessLedger>();

/** This process's ledger in `repoRoot` (one per repository; writes are synchronous and atomic). */
export function ledgerFor(repoRoot: string): ProcessLedger {
  const known = ledgers.get(repoRoot);
  if (known) return known;
  const dir = join(repoRoot, CHILDREN_DIR);
  const file = join(dir, `${process.pid}.json`);
  const groups = new Map<number, Entry>();
  const save = () => {
    try {
      if (groups.size === 0) {
        unlinkSync(file);
        return;
      }
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileAtomicSync(file, `${JSON.stringify({ owner: process.pid, groups: [...groups.values()] })}\n`);
    } catch {
      // Best effort: a missing ledger only means a killed run's children are not reaped.
    }
  };
  const ledger: ProcessLedger = {
    started(pgid, command) {
      groups.set(pgid, { pgid, startTicks: startTicksOf(pgid), command: command.slice(0, 200) });
      save();
    },
    ended(pgid) {
      if (groups.delete(pgid)) save();
    },
  };
  ledgers.set(repoRoot, ledger);
  return ledger;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The pids in process group `pgid`, or null when they cannot all be shown to have started after its recorded leader
 * (then the id may have been reused by something that is not ours, and nothing is killed).
 */
function ourMembers(entry: Entry): number[] | null {
  if (entry.startTicks === null) return null;
  const members: number[] = [];
  const pids = allPids();
  if (pids === null) return null;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (!fields || Number(fields[2]) !== entry.pgid) continue;
    const ticks = Number(fields[19]);
    if (!Number.isFinite(ticks) || ticks < entry.startTicks) return null;
    members.push(pid);
  }
  return members;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stopGroup(pgid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name);
    } catch {
      // Gone.
    }
  };
  signal('SIGTERM');
  for (let waited = 0; waited < 2000; waited += 100) {
    if (!isAlive(-pgid)) return;
    await sleep(100);
  }
  signal('SIGKILL');
}

/**
 * Stops the process groups that tollgate processes which are gone (killed with SIGKILL, a crash) left running in
 * `repoRoot`; answers what was stopped, and what could not be told apart from a reused id (left alone), for stderr.
 */
export async function reapLeftoverGroups(repoRoot: string): Promise<{ stopped: string[]; unsure: string[] }> {
  const dir = join(repoRoot, CHILDREN_DIR);
  const stopped: string[] = [];
  const unsure: string[] = [];
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return { stopped, unsure };
  }
  for (const name of files) {
    const path = join(dir, name);
    let ledger: z.output<typeof ledgerFileSchema>;
    try {
      ledger = ledgerFileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      continue;
    }
    if (ledger.owner === process.pid || isAlive(ledger.owner)) continue;
    for (const entry of ledger.groups) {
      const members = ourMembers(entry);
      if (members === null) {
        if (isAlive(-entry.pgid)) unsure.push(`${entry.command} (process group ${entry.pgid})`);
        continue;
      }
      if (members.length === 0) continue;
      await stopGroup(entry.pgid);
      stopped.push(`${entry.command} (process group ${entry.pgid}, pid ${ledger.owner} was killed)`);
    }
    try {
      unlinkSync(path);
    } catch {
      // Removed by another run meanwhile.
    }
  }
  return { stopped, unsure };
}
