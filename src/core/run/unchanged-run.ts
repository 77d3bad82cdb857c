import { renameSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createEventLog, newRunId } from '../events/writer.js';
import { isoTime } from '../iso-time.js';
import { writeFileAtomicSync } from '../state/atomic-write.js';
import { type HeldLock, tryLockOnce } from '../state/lock-file.js';
import {
  PENDING_PREFIX,
  pruneRunFolders,
  runsReferencedBy,
  type StateRunReferences,
} from '../state/prune-run-folders.js';
import { readVerifiedJson, writeSignedJsonFile } from '../state/signed-json-file.js';
import { readStateKeyIfPresent } from '../state/state-key.js';
import { TOLLGATE_DIR, tollgatePaths } from '../state/tollgate-dir.js';
import { trustedDigestOf } from '../state/trusted-commits.js';
import { recordRunTelemetry } from '../telemetry/record.js';
import { runEndTools } from './run-end-tools.js';
import type { RunReport } from './run-report.js';
import { recordStampEvidence, renewStampEvidence } from './stamp-evidence-record.js';
import type { Stamp } from './tree-stamp.js';
import { UNCHANGED_RUN_FILE } from './unchanged-run-start.js';

/**
 * The repeat run's fast path. An agent runs `tollgate run` again and again on a tree it has not touched since the last
 * run; building the change set and loading the whole CLI to learn "nothing new" cost several times Node's own
 * start-up. So when a plain run passes by repeating what is already validated (nothing changed since the base, or a
 * change, committed or not, whose every validator answered from its last pass over this very fingerprint and config),
 * it saves its report with the stamp of the tree, refs, config and policy state it ran on (tree-stamp.ts), signed with
 * the user's state key, and the digest of the commits the history trusts (which decide a pinned base). A later
 * `tollgate run` whose stamp and trusted commits match, and whose state still holds that pass, answers from that
 * report: a run of its own, with its own id, folder, events and telemetry, whose `run.start` event names the run it
 * repeats (`unchangedSince`). Anything it cannot vouch for goes to the full path instead.
 *
 * A stamp costs a `git status`, which on a large tree is not free: so the small bundle takes one only when the last
 * plain run left a saved report (a run that failed removes it). The first passing run leaves a note with an empty
 * stamp, the second takes a stamp before it starts and again after it ends, saves it when both agree, and the third
 * is answered from it.
 *
 * What it does not do, unlike a full run: it does not record results in `state.json` (nothing ran; the repeated run's
 * results stand) and does not refresh the timestamps of `history.json` (the commits it would record are there already).
 */
const STORED_REPORT_VERSION = 1;

export type UnchangedRunFormat = 'markdown' | 'json';

/** What the full path saves after a plain run that passed (`settleUnchangedRun`). */
export interface UnchangedRunTemplate {
  /** The run as stored: its id is the run every answer from this cache repeats. */
  report: RunReport;
  /** Extra facts the renderers show (where the config was read), kept apart from the stored report. */
  located: Record<string, unknown>;
  format: UnchangedRunFormat;
  configHash: string;
  keepRuns: number;
  command: string;
}

export interface RunCache extends UnchangedRunTemplate {
  stamp: string;
  /** `trustedDigestOf` the history as the run that saved this left it. */
  trusted: string;
}

/** A complete pass of a plain run: worth a note that the next plain run should take a stamp. */
function isCompletePass(report: RunReport): boolean {
  return (
    report.verdict === 'passed' &&
    !report.partial &&
    !report.notStored &&
    report.base.commit !== null &&
    // A flag's base is not what a plain `run` resolves.
    report.base.source !== 'flag'
  );
}

/**
 * A report the fast path may repeat: a complete pass in which nothing ran, every validator answering from its last
 * pass over this very fingerprint and config (`skipped_no_changes`) or unable to run here (`tool_unavailable`, a
 * warning; which tools can run is in the stamp through PATH), none with a finding.
 */
export function isRepeatablePass(report: RunReport): boolean {
  return (
    isCompletePass(report) &&
    report.ignored.length === 0 &&
    report.skippedFiles.length === 0 &&
    report.tools.some((tool) => tool.status === 'skipped_no_changes') &&
    report.tools.every(
      (tool) =>
        (tool.status === 'skipped_no_changes' || tool.status === 'tool_unavailable') && tool.findings.length === 0,
    )
  );
}

/**
 * After a plain `tollgate run`: saves the template for later runs with the same stamp when the run repeated a pass
 * (`isRepeatablePass`) and a stamp taken now (`restamp`) equals the one taken before it started (so the tree the run
 * read is the tree the stamp names: nothing moved in between); saves it with an empty stamp, which no tree matches,
 * after any other complete pass or when there was no stamp (it only tells the next plain run that a stamp is worth
 * taking); removes a saved one after anything else (a failure, an incomplete run). Never fails the run.
 */
export async function settleUnchangedRun(
  repoRoot: string,
  stamp: Stamp | null,
  template: UnchangedRunTemplate,
  restamp: () => Promise<Stamp | null>,
): Promise<void> {
  const path = join(repoRoot, TOLLGATE_DIR, UNCHANGED_RUN_FILE);
  try {
    if (!isCompletePass(template.report)) {
      await rm(path, { force: true });
      return;
    }
    const key = await readStateKeyIfPresent().catch(() => null);
    const history = key && (await readVerifiedJson(join(repoRoot, TOLLGATE_DIR, 'history.json'), 'history', key));
    let saved = '';
    // A racy stamp (a listed file written in the last two seconds) or one that does not vouch is never saved.
    if (isRepeatablePass(template.report) && stamp && !stamp.racy && stamp.vouches && history) {
      const after = await restamp();
      if (after?.value === stamp.value && after.vouches && after.repoRoot === stamp.repoRoot) saved = stamp.value;
    }
    const cache: RunCache = { stamp: saved, trusted: trustedDigestOf(history ?? null), ...template };
    await writeSignedJsonFile(path, 'run-cache', cache, { indent: 0 });
    // The next stamp may then take its git's answer from the evidence, without git (stamp-evidence.ts).
    if (saved !== '' && stamp?.taken) await recordStampEvidence(stamp.taken.cwd, stamp.taken.env);
  } catch {
    await rm(path, { force: true }).catch(() => {}); // no cache: the next run takes the full path
  }
}

export { findUnchangedRun, plainRunStampOptions } from './unchanged-run-start.js';

export interface UnchangedRunAnswer {
  /** The new run's report, to render. */
  report: RunReport;
  located: Record<string, unknown>;
  format: UnchangedRunFormat;
  /** The run whose result this repeats. */
  repeats: string;
}

/** What an answer stands on besides the stamp, read while git takes the stamp. */
export interface SavedUnchangedRun {
  repoRoot: string;
  cache: RunCache;
  history: Record<string, unknown> | null;
  state: StateRunReferences;
}

/**
 * Reads the saved report and what it stands on: the cache and the state signed with the user's key, a `.tollgate`
 * that is a real folder (a symlink or a file is refused by the full path, which says so: never followed here), no
 * killed run's processes left to stop. Null when any of that fails.
 */
export async function readUnchangedRun(repoRoot: string, env: NodeJS.ProcessEnv): Promise<SavedUnchangedRun | null> {
  const key = await readStateKeyIfPresent(env).catch(() => null);
  if (!key) return null;
  const paths = tollgatePaths(repoRoot);
  if (!(await lstat(paths.root).catch(() => null))?.isDirectory()) return null;
  const [cache, history, state, leftovers] = await Promise.all([
    readVerifiedJson(join(paths.root, UNCHANGED_RUN_FILE), 'run-cache', key),
    readVerifiedJson(join(paths.root, 'history.json'), 'history', key),
    readVerifiedJson(paths.statePath, 'state', key),
    leftoverProcesses(paths.root),
  ]);
  if (!isRunCache(cache) || !isRepeatablePass(cache.report) || !isStateShape(state) || leftovers) return null;
  return { repoRoot, cache, history, state };
}

/** A run's record written ahead, in a folder no reader lists, under the run lock, while git takes the stamp. */
export interface PendingUnchangedRun {
  saved: SavedUnchangedRun;
  runId: string;
  pendingDir: string;
  report: RunReport;
  lock: HeldLock;
}

/**
 * Takes the run lock and writes the new run's record into `.tollgate/runs/.pending-<id>/` (no reader lists a folder
 * whose name starts with a dot), so that the record costs nothing while git takes the stamp. Null, having written
 * nothing, when the saved report cannot be repeated whatever the stamp (its base no longer trusted) or the lock is
 * busy. `answerUnchangedRun` then keeps the record or drops it.
 */
export async function prepareUnchangedRun(
  saved: SavedUnchangedRun,
  startedAt: number,
): Promise<PendingUnchangedRun | null> {
  // An empty stamp (a note) matches no tree: nothing to write ahead. A base the history no longer trusts, trusted
  // commits that changed (a pinned base may move), or a state that no longer holds the pass: the full path decides.
  const { cache, history, state } = saved;
  if (cache.stamp === '' || !trusts(history, cache.report.base.commit!)) return null;
  if (trustedDigestOf(history) !== cache.trusted || !stillPasses(state, cache)) return null;
  const paths = tollgatePaths(saved.repoRoot);
  const lock = tryLockOnce(paths.lockPath, saved.cache.command);
  if (!lock) return null;
  const runId = newRunId();
  const pendingDir = join(paths.runsDir, `${PENDING_PREFIX}${runId}`);
  try {
    const report = await recordRun(saved.cache, { runId, runDir: pendingDir, startedAt });
    return { saved, runId, pendingDir, report, lock };
  } catch {
    // A disk that refuses the record: nothing half-written stays, and the full path reports the problem.
    await rm(pendingDir, { recursive: true, force: true }).catch(() => {});
    lock.release();
    return null;
  }
}

/**
 * Keeps the pending record as the answer when `stamp` vouches for the tree and matches the saved one, and prunes old
 * runs (`output.keepRuns`) as a full run does; else drops it. Either way the lock is released. Null: the full path
 * must decide.
 */
export async function answerUnchangedRun(
  stamp: Stamp | null,
  pending: PendingUnchangedRun,
): Promise<UnchangedRunAnswer | null> {
  const { saved, runId, lock } = pending;
  const { cache } = saved;
  try {
    if (!stamp?.vouches || stamp.repoRoot !== saved.repoRoot || cache.stamp !== stamp.value) {
      await rm(pending.pendingDir, { recursive: true, force: true });
      return null;
    }
    renameSync(pending.pendingDir, tollgatePaths(saved.repoRoot).runDir(runId));
    // git's own answer matched the saved stamp: the evidence is renewed, under the run lock as a full run records it.
    await renewStampEvidence(stamp);
    await pruneRunFolders(saved.repoRoot, {
      keep: cache.keepRuns,
      current: runId,
      referenced: async () => runsReferencedBy(saved.state),
    }).catch(() => []);
    return { report: pending.report, located: cache.located, format: cache.format, repeats: cache.report.runId };
  } catch {
    await rm(pending.pendingDir, { recursive: true, force: true }).catch(() => {});
    return null;
  } finally {
    lock.release();
  }
}

/** The new run's event log, stored report and telemetry. */
async function recordRun(
  cache: RunCache,
  run: { runId: string; runDir: string; startedAt: number },
): Promise<RunReport> {
  const template = cache.report;
  const events = createEventLog(run.runDir, { verbose: false });
  let report: RunReport;
  try {
    events.emit('run.start', {
      runId: run.runId,
      command: cache.command,
      repoRoot: template.repoRoot,
      base: template.base,
      fingerprint: template.fingerprint,
      configHash: cache.configHash,
      tools: template.tools.map((tool) => tool.name),
      unchangedSince: template.runId,
    });
    const startedAt = isoTime(new Date(run.startedAt));
    report = {
      ...template,
      runId: run.runId,
      startedAt,
      durationMs: Date.now() - run.startedAt,
      tools: template.tools.map((tool) => ({ ...tool, startedAt, durationMs: 0 })),
    };
    const stored = `${JSON.stringify({ storedReport: STORED_REPORT_VERSION, report })}\n`;
    // Not flushed to disk: the run it repeats is stored durably, and `log` falls back to the events without it. The
    // event log made the folder.
    writeFileAtomicSync(join(run.runDir, 'report.json'), stored, {
      label: `${TOLLGATE_DIR}/runs/${run.runId}/report.json`,
      durable: false,
    });
    await recordRunTelemetry(run.runDir, { runId: run.runId, tools: report.tools, source: 'run' });
    // The report repeated was masked when it was stored.
    const tools = runEndTools(report.tools, (text) => text);
    events.emit('run.end', { runId: run.runId, verdict: report.verdict, durationMs: report.durationMs, tools });
  } finally {
    events.close();
  }
  return report;
}

function isRunCache(value: Record<string, unknown> | null): value is RunCache & Record<string, unknown> {
  if (!value || typeof value.stamp !== 'string' || typeof value.command !== 'string') return false;
  if (typeof value.trusted !== 'string') return false;
  if (typeof value.configHash !== 'string' || !Number.isInteger(value.keepRuns)) return false;
  if (value.format !== 'markdown' && value.format !== 'json') return false;
  const report = value.report as RunReport | undefined;
  return (
    typeof report === 'object' &&
    report !== null &&
    typeof report.runId === 'string' &&
    Array.isArray(report.tools) &&
    typeof report.base === 'object' &&
    report.base !== null &&
    typeof value.located === 'object' &&
    value.located !== null
  );
}

/** The history (signed) lists `commit` among the bases runs used or the HEADs they validated. */
function trusts(history: Record<string, unknown> | null, commit: string): boolean {
  if (!history) return false;
  const listed = (list: unknown) =>
    Array.isArray(list) && list.some((entry) => (entry as { commit?: unknown } | null)?.commit === commit);
  return listed(history.bases) || listed(history.validated);
}

/**
 * For a report with changes: the state's latest complete run over its fingerprint and config still passed (a waiver
 * removed since withdraws the passes it supported, and a later failing run over the same tree outranks the pass).
 * A report with nothing changed stands on the runs it skipped for, whose results the state keeps.
 */
function stillPasses(state: StateRunReferences, cache: RunCache): boolean {
  if (cache.report.changedFiles === 0) return true;
  const runs = state.runs as unknown as readonly (Record<string, unknown> | null)[];
  const matching = runs.filter(
    (run) =>
      run?.fingerprint === cache.report.fingerprint && run?.configHash === cache.configHash && run?.complete === true,
  );
  return matching.at(-1)?.verdict === 'passed';
}

function isStateShape(state: Record<string, unknown> | null): state is StateRunReferences & Record<string, unknown> {
  return (
    state !== null &&
    Array.isArray(state.runs) &&
    state.runs.every(
      (run) =>
        typeof (run as { runId?: unknown }).runId === 'string' &&
        typeof (run as { verdict?: unknown }).verdict === 'string',
    )
  );
}

/** A killed run's ledger of child processes: the full path stops them before any new run. */
async function leftoverProcesses(tollgateRoot: string): Promise<boolean> {
  try {
    return (await readdir(join(tollgateRoot, 'children'))).some((name) => name.endsWith('.json'));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
