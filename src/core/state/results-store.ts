import { rename } from 'node:fs/promises';
import { z } from 'zod';
import { TollgateError } from '../errors.js';
import { SEVERITIES, type Severity } from '../finding.js';
import { isSuccessfulRun, type ToolStatus } from '../result.js';
import { readJsonFileResult } from './atomic-write.js';
import { withStateLock } from './lock.js';
import { forgedFileMessage, readSignedJsonFile, writeSignedJsonFile } from './signed-json-file.js';
import { ensureTollgateDir, TOLLGATE_DIR, tollgatePaths } from './tollgate-dir.js';

/**
 * `.tollgate/state.json`: per validator, its last run, its last *successful* run (the only baseline a
 * `skipped_no_changes` may stand on) and its last findings (for `tollgate waive`); and the verdicts of recent runs
 * (for the stop hook). Versioned; top-level keys this version does not know (`unhealthy_adapters`, …) are kept as
 * they are when the file is rewritten. Signed with the user's state key (`signed-json.ts`): a file edited outside
 * tollgate is not trusted, and one from before signatures reads as absent (everything is validated again).
 */
const STATE_VERSION = 1;
const STATE_LABEL = `${TOLLGATE_DIR}/state.json`;
/** Enough history for the stop hook to find the verdict of the change it is looking at. */
const MAX_RUN_VERDICTS = 100;

const findingSummarySchema = z.object({
  id: z.string(),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  path: z.string().optional(),
  line: z.number().int().optional(),
});
/** What the store keeps of a finding: enough to name it and to check its severity, nothing of its body or output. */
export type FindingSummary = z.output<typeof findingSummarySchema>;

const runRefSchema = z.object({ runId: z.string(), at: z.string() });
const toolRunSchema = runRefSchema.extend({
  fingerprint: z.string(),
  configHash: z.string(),
  // A plain string: a status added by a newer tollgate must not make the whole file unreadable.
  status: z.string(),
  /** HEAD's commit at the run: what keys a result over the commits since the base (absent in older files). */
  head: z.string().nullable().optional(),
});

const toolStateSchema = z.looseObject({
  lastRun: toolRunSchema.extend({ findingIds: z.array(z.string()) }).optional(),
  /** With its findings, which become the last findings again when a later run skips on this baseline. */
  lastSuccessful: toolRunSchema.extend({ findings: z.array(findingSummarySchema).default([]) }).optional(),
  lastFindings: runRefSchema.extend({ findings: z.array(findingSummarySchema) }).optional(),
});
export type ToolState = z.output<typeof toolStateSchema>;

const runVerdictSchema = runRefSchema.extend({
  fingerprint: z.string(),
  configHash: z.string(),
  /** The validators this run included: a run of some (`--only`) never stands in for a run of all. */
  tools: z.array(z.string()),
  verdict: z.enum(['passed', 'failed']),
  /** Every enabled validator ran and the run reached its end. */
  complete: z.boolean(),
  /** HEAD's commit at the run: a pass of the same tree with other commits under it is another change. */
  head: z.string().nullable().optional(),
});
export type RunVerdictRecord = z.output<typeof runVerdictSchema>;

const stateSchema = z.looseObject({
  version: z.literal(STATE_VERSION),
  tools: z.record(z.string(), toolStateSchema).default({}),
  runs: z.array(runVerdictSchema).default([]),
});
export type TollgateState = z.output<typeof stateSchema>;

const versionOnlySchema = z.looseObject({ version: z.number() });

function emptyState(): TollgateState {
  return { version: STATE_VERSION, tools: {}, runs: [] };
}

/** Tells the user about a state file that was set aside. Tests and the MCP server can route it elsewhere. */
export type StateWarning = (message: string) => void;

const warnOnStderr: StateWarning = (message) => process.stderr.write(`tollgate: warning: ${message}\n`);

/** A refused state file is named once per process, not at each of the many reads of one run. */
const warnedForged = new Set<string>();

/**
 * Reads `state.json`. A missing, corrupt, unsigned (older tollgate) or forged file reads as empty: everything that
 * depends on the state then fails closed (validators rerun instead of skipping, the stop hook asks for a run), so
 * starting fresh is the safe recovery. A file from a newer tollgate is an error, since rewriting it would destroy
 * what that version keeps.
 */
export async function readState(repoRoot: string, options: { onWarning?: StateWarning } = {}): Promise<TollgateState> {
  const read = await readStateFile(repoRoot);
  if (read.kind === 'forged') {
    const path = tollgatePaths(repoRoot).statePath;
    if (!warnedForged.has(path)) {
      warnedForged.add(path);
      (options.onWarning ?? warnOnStderr)(forgedFileMessage(STATE_LABEL, 'ignored it: every validator runs again'));
    }
  }
  return read.kind === 'ok' ? read.value : emptyState();
}

/**
 * `state.json` is there but refused: its signature does not match this process's state key (edited outside tollgate,
 * or written by a tollgate that signs with another key). The stop hook says so rather than "never validated".
 */
export async function isStateFileRefused(repoRoot: string): Promise<boolean> {
  return (await readStateFile(repoRoot)).kind === 'forged';
}

async function readStateFile(repoRoot: string) {
  const path = tollgatePaths(repoRoot).statePath;
  const version = await readJsonFileResult(path, versionOnlySchema);
  if (version.kind === 'ok' && version.value.version > STATE_VERSION) {
    throw new TollgateError(
      'io',
      `${STATE_LABEL}: written by a newer tollgate (state version ${version.value.version}, this one reads ${STATE_VERSION}); upgrade tollgate, or delete the file to start fresh`,
    );
  }
  return readSignedJsonFile(path, stateSchema, 'state');
}

/**
 * Read-modify-write of `state.json` under `.tollgate/state.lock`, written atomically and signed. A corrupt file is
 * moved to `.tollgate/state.json.corrupt` and a forged one to `.tollgate/state.json.rejected` (kept for a look); the
 * update then starts from an empty state, as it does over an unsigned file from an older tollgate.
 */
export async function updateState(
  repoRoot: string,
  mutate: (state: TollgateState) => void,
  options: { onWarning?: StateWarning } = {},
): Promise<TollgateState> {
  const paths = ensureTollgateDir(repoRoot);
  return withStateLock(repoRoot, async () => {
    const read = await readStateFile(repoRoot);
    let state: TollgateState;
    if (read.kind === 'ok') state = read.value;
    else {
      const warn = options.onWarning ?? warnOnStderr;
      if (read.kind === 'corrupt') {
        await rename(paths.statePath, `${paths.statePath}.corrupt`);
        warn(
          `${STATE_LABEL}: ${read.problem}; moved it to ${STATE_LABEL}.corrupt and started fresh (validators rerun instead of skipping)`,
        );
      } else if (read.kind === 'forged') {
        await rename(paths.statePath, `${paths.statePath}.rejected`);
        warn(forgedFileMessage(STATE_LABEL, `moved it to ${STATE_LABEL}.rejected and started fresh`));
      }
      state = emptyState();
    }
    mutate(state);
    // Compact: the fast paths check its MAC on the text as read, without serializing the parsed object again.
    await writeSignedJsonFile(paths.statePath, 'state', state, { label: STATE_LABEL, indent: 0 });
    return state;
  });
}

export interface ToolResultRecord {
  tool: string;
  /** The change set's fingerprint. */
  fingerprint: string;
  /** Hash of the effective config. */
  configHash: string;
  status: ToolStatus;
  runId: string;
  /** ISO timestamp. */
  at: string;
  /** Ids of the tool's findings; derived from `findings` when absent. */
  findingIds?: readonly string[];
  /** The tool's findings, already redacted; only id, severity, title, path and line are kept. */
  findings?: readonly FindingSummaryInput[];
  /** The call examined only part of the change (explicit paths or packages): it can never become the baseline. */
  scoped?: boolean;
  /** HEAD's commit at the run (null without commits). */
  head?: string | null;
}

export interface FindingSummaryInput {
  id: string;
  severity: Severity;
  title: string;
  path?: string;
  line?: number;
}

/**
 * Records one validator's result. Only a `passed` over the whole change set advances the baseline a later `skipped_no_changes` stands on; a
 * `failed` result for the very same fingerprint and config withdraws it (the same input was just seen to fail, so the
 * old pass no longer vouches for it). Errors, timeouts and other runs that could not judge the code leave it alone.
 */
export async function recordResult(
  repoRoot: string,
  record: ToolResultRecord,
  options: { onWarning?: StateWarning } = {},
): Promise<void> {
  await updateState(repoRoot, (state) => applyResult(state, record), options);
}

/** The pure part of `recordResult`, exported for table tests. */
export function applyResult(state: TollgateState, record: ToolResultRecord): void {
  const entry: ToolState = state.tools[record.tool] ?? {};
  const run = {
    runId: record.runId,
    at: record.at,
    fingerprint: record.fingerprint,
    configHash: record.configHash,
    status: record.status,
    ...(record.head !== undefined ? { head: record.head } : {}),
  };
  const findings = (record.findings ?? []).map(summarizeFinding);
  entry.lastRun = { ...run, findingIds: [...(record.findingIds ?? findings.map((finding) => finding.id))] };
  if (isSuccessfulRun(record.status) && !record.scoped) entry.lastSuccessful = { ...run, findings };
  else if (
    record.status === 'failed' &&
    entry.lastSuccessful?.fingerprint === record.fingerprint &&
    entry.lastSuccessful.configHash === record.configHash
  ) {
    delete entry.lastSuccessful;
  }
  if (record.status !== 'skipped_no_changes') entry.lastFindings = { runId: record.runId, at: record.at, findings };
  else if (entry.lastSuccessful) {
    // A skip did not look at the code: the findings of the run it stands on are the current ones.
    const { runId, at, findings: baselineFindings } = entry.lastSuccessful;
    entry.lastFindings = { runId, at, findings: baselineFindings };
  }
  state.tools[record.tool] = entry;
}

function summarizeFinding(finding: FindingSummaryInput): FindingSummary {
  return {
    id: finding.id,
    severity: finding.severity,
    title: finding.title,
    ...(finding.path === undefined ? {} : { path: finding.path }),
    ...(finding.line === undefined ? {} : { line: finding.line }),
  };
}

export type SkipDecision = { skip: true; since: { runId: string; at: string } } | { skip: false };

export interface SkipQuery {
  tool: string;
  fingerprint: string;
  configHash: string;
  /** Set for a validator that reads the commits since the base: its pass stands only for the same HEAD. */
  head?: string | null;
}

/**
 * A validator may answer `skipped_no_changes` only when the fingerprint AND the config hash equal those of its last
 * successful run.
 */
export async function canSkipNoChanges(repoRoot: string, query: SkipQuery): Promise<SkipDecision> {
  return skipDecision(await readState(repoRoot), query);
}

export function skipDecision(state: TollgateState, query: SkipQuery): SkipDecision {
  const baseline = state.tools[query.tool]?.lastSuccessful;
  if (!baseline || baseline.fingerprint !== query.fingerprint || baseline.configHash !== query.configHash) {
    return { skip: false };
  }
  if (query.head !== undefined && baseline.head !== query.head) return { skip: false };
  return { skip: true, since: { runId: baseline.runId, at: baseline.at } };
}

export interface RunVerdictInput {
  runId: string;
  fingerprint: string;
  configHash: string;
  /** The validators the run included. */
  tools: readonly string[];
  verdict: 'passed' | 'failed';
  /** False for `--only`/`--skip` runs and runs cut short. */
  complete: boolean;
  /** HEAD's commit at the run (null without commits). */
  head?: string | null;
  /** ISO timestamp; default now. */
  at?: string;
}

export async function recordRunVerdict(
  repoRoot: string,
  input: RunVerdictInput,
  options: { onWarning?: StateWarning } = {},
): Promise<void> {
  await updateState(repoRoot, (state) => applyRunVerdict(state, input), options);
}

/** The pure part of `recordRunVerdict`. */
function applyRunVerdict(state: TollgateState, input: RunVerdictInput): void {
  const { at, tools, ...rest } = input;
  state.runs = state.runs.filter((run) => run.runId !== input.runId);
  state.runs.push({ ...rest, tools: [...tools], at: at ?? new Date().toISOString() });
  if (state.runs.length > MAX_RUN_VERDICTS) state.runs = state.runs.slice(-MAX_RUN_VERDICTS);
}

/**
 * A whole run in one update of state.json (one lock, one atomic write): every validator's result, then the verdict.
 */
export async function recordRun(
  repoRoot: string,
  input: { results: readonly ToolResultRecord[]; verdict: RunVerdictInput },
  options: { onWarning?: StateWarning } = {},
): Promise<void> {
  await updateState(
    repoRoot,
    (state) => {
      for (const record of input.results) applyResult(state, record);
      applyRunVerdict(state, input.verdict);
    },
    options,
  );
}

export interface VerdictQuery {
  /** Only a run under this config counts. */
  configHash?: string;
  /** Only a run that included every one of these validators counts. */
  tools?: readonly string[];
  /** Let a partial run (`--only`, cut short) count. Default false. */
  includePartial?: boolean;
  /** Only a run at this HEAD counts (a run recorded without one never matches). */
  head?: string | null;
}

/** The most recent run verdict for this change set, or null. By default only complete runs count. */
export async function lastVerdictFor(
  repoRoot: string,
  fingerprint: string,
  query: VerdictQuery = {},
): Promise<RunVerdictRecord | null> {
  return findVerdict(await readState(repoRoot), fingerprint, query);
}

export function findVerdict(
  state: TollgateState,
  fingerprint: string,
  query: VerdictQuery = {},
): RunVerdictRecord | null {
  for (let index = state.runs.length - 1; index >= 0; index--) {
    const run = state.runs[index]!;
    if (run.fingerprint !== fingerprint) continue;
    if (!run.complete && !query.includePartial) continue;
    if (query.configHash !== undefined && run.configHash !== query.configHash) continue;
    if (query.tools && !query.tools.every((tool) => run.tools.includes(tool))) continue;
    if (query.head !== undefined && run.head !== query.head) continue;
    return run;
  }
  return null;
}

export interface LastFinding extends FindingSummary {
  tool: string;
  runId: string;
  at: string;
}

/** Every validator's findings from its last real run, most recent first. */
export async function lastFindings(repoRoot: string): Promise<LastFinding[]> {
  const state = await readState(repoRoot);
  const all: LastFinding[] = [];
  for (const [tool, entry] of Object.entries(state.tools)) {
    if (!entry.lastFindings) continue;
    const { runId, at, findings } = entry.lastFindings;
    for (const finding of findings) all.push({ ...finding, tool, runId, at });
  }
  return all.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}
