import type { Severity } from '../finding.js';
import { runProcess } from '../process.js';
import type { WaiverOrigin, WaiverRecord } from './waiver-record.js';

/**
 * Where a waiver counts. No local check can prove that a person made a waiver (docs/waivers.md), so a local waiver of
 * a high or critical finding is held to the narrowest scope: this machine (the local file is signed with the user's
 * key, which never leaves it) and this commit (it lapses once HEAD moves, i.e. once the change is committed). Past
 * that, the finding needs the committed `tollgate.waivers.yaml`, which is reviewed like any policy change.
 */
const HEAD_BOUND: readonly Severity[] = ['critical', 'high'];

/**
 * How a waiver is being made, from what this process can see: the agent markers set in its environment (`agentMarkers`
 * of src/agents/agent-environment.ts, which knows the agents) and whether stdin is a terminal.
 */
export function waiverOrigin(markers: readonly string[], tty: boolean): WaiverOrigin {
  const kind = markers.length > 0 ? 'agent-env' : tty ? 'terminal' : 'no-terminal';
  return { kind, tty, agentMarkers: [...markers] };
}

/** A few words for reports and `waive --list`: "at a terminal", "under an agent (CLAUDECODE)", … */
export function describeOrigin(waiver: Pick<WaiverRecord, 'committed' | 'madeBy'>): string {
  if (waiver.committed) return 'committed in tollgate.waivers.yaml';
  const origin = waiver.madeBy;
  if (!origin) return 'made by an unknown route';
  switch (origin.kind) {
    case 'terminal':
      return 'made at a terminal';
    case 'agent-env':
      return `made under an agent (${origin.agentMarkers.join(', ')})`;
    case 'no-terminal':
      return 'made without a terminal';
  }
}

/** Whether this waiver is bound to the commit it was made on. */
export function isHeadBound(waiver: Pick<WaiverRecord, 'committed' | 'severity'>): boolean {
  return !waiver.committed && (waiver.severity === undefined || HEAD_BOUND.includes(waiver.severity));
}

/** Why a waiver no longer applies at `head`, or null when it does. */
export function lapsedAt(waiver: WaiverRecord, head: string): string | null {
  if (!isHeadBound(waiver)) return null;
  if (waiver.head === undefined) return 'a local high/critical waiver without the commit it was made on';
  if (waiver.head === head) return null;
  const short = (id: string) => (id === '' ? 'no commit' : id.slice(0, 12));
  return `made on ${short(waiver.head)}, HEAD is now ${short(head)}: a local high/critical waiver holds only until the change is committed`;
}

/** The commit HEAD is at; '' before the first commit. */
export async function currentHead(repoRoot: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const result = await runProcess('git', ['rev-parse', '--verify', '-q', 'HEAD'], {
    cwd: repoRoot,
    ...(env ? { env } : {}),
    timeoutMs: 10_000,
  });
  return result.exitCode === 0 ? result.stdout.trim() : '';
}
