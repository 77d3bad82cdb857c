import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TollgateError } from '../errors.js';
import { isSafeRunId, TOLLGATE_DIR, tollgatePaths } from '../state/tollgate-dir.js';
import { parseEventLog, readEventLog } from './reader.js';
import { type RunSummary, replayRun } from './replay.js';
import { EVENTS_FILE } from './writer.js';

/** One line of `tollgate log --list`. */
export interface RunListing {
  runId: string;
  startedAt: string | null;
  /** null when the run never reached `run.end`. */
  verdict: 'passed' | 'failed' | null;
  state: 'finished' | 'interrupted';
  durationMs: number | null;
  tools: string[];
  command: string | null;
}

const RUNS_LABEL = `${TOLLGATE_DIR}/runs`;

/** Run folders, newest first (run ids sort by time). */
async function runIds(repoRoot: string): Promise<string[]> {
  try {
    const entries = await readdir(tollgatePaths(repoRoot).runsDir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && isSafeRunId(entry.name))
      .map((entry) => entry.name)
      .sort()
      .reverse();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function latestRunId(repoRoot: string): Promise<string | null> {
  return (await runIds(repoRoot))[0] ?? null;
}

export async function listRuns(repoRoot: string, options: { limit?: number } = {}): Promise<RunListing[]> {
  const ids = (await runIds(repoRoot)).slice(0, options.limit ?? 20);
  return Promise.all(
    ids.map(async (runId) => {
      const summary = await readSummary(repoRoot, runId).catch(() => replayRun(parseEventLog('')));
      return {
        runId,
        startedAt: summary.start?.at ?? summary.firstAt,
        verdict: summary.end?.verdict ?? null,
        state: summary.state,
        durationMs: summary.end?.durationMs ?? null,
        tools: summary.start?.tools ?? summary.tools.map((tool) => tool.toolName),
        command: summary.start?.command ?? null,
      };
    }),
  );
}

export interface LoadedRun {
  runId: string;
  summary: RunSummary;
}

/** Replays one run's log; without a run id, the latest run's. */
export async function loadRun(repoRoot: string, runId?: string): Promise<LoadedRun> {
  const id = runId ?? (await latestRunId(repoRoot));
  if (id === null) {
    throw new TollgateError('not_found', `no runs in ${RUNS_LABEL} yet; \`tollgate run\` records one`);
  }
  if (!isSafeRunId(id) || !(await runIds(repoRoot)).includes(id)) {
    throw new TollgateError(
      'not_found',
      `no run ${JSON.stringify(id)} in ${RUNS_LABEL} (tollgate log --list shows them)`,
    );
  }
  return { runId: id, summary: await readSummary(repoRoot, id) };
}

async function readSummary(repoRoot: string, runId: string): Promise<RunSummary> {
  const path = join(tollgatePaths(repoRoot).runDir(runId), EVENTS_FILE);
  return replayRun(await readEventLog(path, `${RUNS_LABEL}/${runId}/${EVENTS_FILE}`));
}
