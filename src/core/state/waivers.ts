import { existsSync } from 'node:fs';
import { TollgateError } from '../errors.js';
import { lastDurableId, readEventLog } from '../events/reader.js';
import type { EventDataByType } from '../events/types.js';
import { openEventLog } from '../events/writer.js';
import type { Finding, Severity } from '../finding.js';
import { runProcess } from '../process.js';
import type { Reader } from '../reader.js';
import { POLICY_RESULT_NAME } from '../result.js';
import { readCommittedWaivers, writeCommittedWaiver } from './committed-waivers.js';
import { readLocalWaivers, type WaiversFile, writeLocalWaivers } from './local-waivers-file.js';
import { withStateLock } from './lock.js';
import type { PolicyReader } from './policy-reader.js';
import { type LastFinding, lastFindings, updateState } from './results-store.js';
import { ensureTollgateDir } from './tollgate-dir.js';
import type { WaiverOrigin, WaiverRecord } from './waiver-record.js';
import { currentHead, describeOrigin, isHeadBound, lapsedAt } from './waiver-scope.js';

/**
 * Accepted risks, by finding id: this clone's `.tollgate/waivers.json` (signed, `local-waivers-file.ts`) and the
 * committed `tollgate.waivers.yaml`. A waived finding still appears in every report, marked. Each change is also an
 * event in `.tollgate/waivers.events.jsonl`, an audit log of its own: waivers outlive the run they were made after,
 * and a run's log stays a record of that run alone.
 */
export type { WaiverRecord };

/** This clone's waivers, then the committed ones (which win for the same finding: a team's reviewed decision). */
export async function listWaivers(repoRoot: string, policy?: PolicyReader): Promise<WaiverRecord[]> {
  const [local, committed] = await Promise.all([
    readLocalWaivers(repoRoot),
    readCommittedWaivers(repoRoot, undefined, policy),
  ]);
  return [...local.file.waivers, ...committed.map((waiver) => ({ ...waiver, committed: true }))];
}

/** The waivers that apply now: a local high/critical one only on the commit it was made on (`waiver-scope.ts`). */
export async function waiversInForce(repoRoot: string, policy?: PolicyReader): Promise<WaiverRecord[]> {
  const waivers = await listWaivers(repoRoot, policy);
  // Only a head-bound waiver can lapse: without one, HEAD is not worth a git process (every run asks).
  if (!waivers.some(isHeadBound)) return waivers;
  const head = await currentHead(repoRoot);
  return waivers.filter((waiver) => lapsedAt(waiver, head) === null);
}

/** Whether a waiver has expired by `now` (one without an expiry never does). */
export function isExpired(waiver: Pick<WaiverRecord, 'expiresAt'>, now: Date = new Date()): boolean {
  // Stryker disable next-line ConditionalExpression: without the check, Date.parse(undefined) is NaN, never <= now
  return waiver.expiresAt !== undefined && Date.parse(waiver.expiresAt) <= now.getTime();
}

/** Marks the waived findings (a copy of each); the others are returned as they are. Expired waivers apply to nothing. */
export function applyWaivers(
  findings: readonly Finding[],
  waivers: readonly WaiverRecord[],
  now: Date = new Date(),
): Finding[] {
  const byId = new Map(waivers.filter((waiver) => !isExpired(waiver, now)).map((waiver) => [waiver.findingId, waiver]));
  return findings.map((finding) => {
    const waiver = byId.get(finding.id);
    if (!waiver) return finding;
    const { findingId, reason, by, at } = waiver;
    return { ...finding, waiver: { findingId, reason, by, at, how: describeOrigin(waiver) } };
  });
}

export interface WaiveRequest {
  /** A finding id from the last run, or a unique prefix of one (at least 4 characters). */
  findingId: string;
  reason: string;
  /** A person is recording this: any severity may be waived, and `by` carries no "(agent)". */
  human: boolean;
  /** Config `waivers.allow`: severities an agent may waive. */
  allow: readonly Severity[];
  /** How long the waiver holds (ms); none: until removed. */
  expiresInMs?: number;
  /** Write it to the committed `tollgate.waivers.yaml` (it applies once committed) instead of `.tollgate/`. */
  commit?: boolean;
  /**
   * With `human`: asks the person to confirm this finding (they type its id). Resolves false when they did not; the
   * waiver is then not recorded.
   */
  confirm?: (finding: LastFinding) => Promise<boolean>;
  /** How the waiver is being made (`waiverOrigin`), recorded with it. */
  madeBy?: WaiverOrigin;
  /** Who reads a refusal (default: an agent, told no command). */
  reader?: Reader;
  /** Environment for `git config user.name` and `$USER`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

const MIN_PREFIX = 4;

/**
 * Records a waiver for a finding of the last run. The finding's severity (from the results store) must be in
 * `waivers.allow`, unless a person records it with `--human`. Replaces an earlier waiver of the same finding.
 */
export async function waiveFinding(repoRoot: string, request: WaiveRequest): Promise<WaiverRecord> {
  const reason = request.reason.trim();
  if (reason === '')
    throw new TollgateError('usage', '--reason: expected why the finding is acceptable, got an empty text');
  const finding = findFinding(await lastFindings(repoRoot), request.findingId);
  const reader = request.reader ?? 'agent';
  if (finding.tool === POLICY_RESULT_NAME) throw policyEditRefusal(finding, reader);
  if (!request.human && !request.allow.includes(finding.severity)) {
    const allowed = request.allow.length > 0 ? request.allow.join(', ') : 'nothing';
    const head = `finding "${finding.id}" is ${finding.severity} (${describeFinding(finding)}); waivers.allow lets an agent waive ${allowed}`;
    // An agent reads no command here: it must fix the finding rather than look for a way around it.
    throw new TollgateError(
      'usage',
      reader === 'person'
        ? `${head}: to accept this risk yourself, run the same command with --human (you confirm by typing the finding id)`
        : `${head}, so fix it: only a person at their own terminal can accept this risk`,
    );
  }
  if (request.human && request.confirm && !(await request.confirm(finding))) {
    throw new TollgateError('usage', `--human: the finding id was not confirmed; nothing was waived`);
  }
  const now = request.now ?? new Date();
  const by = `${await whoIsWaiving(repoRoot, request.env ?? process.env)}${request.human ? '' : ' (agent)'}`;
  const record: WaiverRecord = {
    findingId: finding.id,
    reason,
    by,
    at: now.toISOString(),
    severity: finding.severity,
    tool: finding.tool,
    title: finding.title,
    ...(request.expiresInMs !== undefined
      ? { expiresAt: new Date(now.getTime() + request.expiresInMs).toISOString() }
      : {}),
    ...(request.madeBy ? { madeBy: request.madeBy } : {}),
  };
  if (!request.commit && isHeadBound(record)) record.head = await currentHead(repoRoot, request.env);
  const data = { findingId: record.findingId, reason, by, severity: finding.severity, automatic: !request.human };
  if (request.commit) {
    await writeCommittedWaiver(repoRoot, record);
    // The audit log still records who wrote it; the file itself is reviewed in the commit that adds the entry.
    await updateWaivers(repoRoot, () => [{ type: 'waiver.recorded', data }]);
    return { ...record, committed: true };
  }
  await updateWaivers(repoRoot, (file) => {
    file.waivers = [...file.waivers.filter((waiver) => waiver.findingId !== record.findingId), record];
    return [{ type: 'waiver.recorded', data }];
  });
  return record;
}

/** Removes a waiver (anyone may: it only makes the gate stricter). */
export async function removeWaiver(
  repoRoot: string,
  findingId: string,
  options: { human: boolean; env?: NodeJS.ProcessEnv },
): Promise<WaiverRecord> {
  const by = `${await whoIsWaiving(repoRoot, options.env ?? process.env)}${options.human ? '' : ' (agent)'}`;
  let removed: WaiverRecord | undefined;
  await updateWaivers(repoRoot, (file) => {
    const matches = matchingIds(
      file.waivers.map((waiver) => waiver.findingId),
      findingId,
    );
    if (matches.length !== 1) {
      const problem = matches.length === 0 ? 'no waiver for' : 'more than one waiver matches';
      throw new TollgateError('not_found', `${problem} finding id "${findingId}" (tollgate waive --list shows them)`);
    }
    removed = file.waivers.find((waiver) => waiver.findingId === matches[0]);
    file.waivers = file.waivers.filter((waiver) => waiver.findingId !== matches[0]);
    return [{ type: 'waiver.removed', data: { findingId: matches[0]!, by } }];
  });
  // A passing verdict may have stood on this waiver: forget passing verdicts, so the stop hook asks for a new run
  // instead of letting the now-blocking finding through. (Conservative: other passing runs are simply redone.)
  await updateState(repoRoot, (state) => {
    state.runs = state.runs.filter((run) => run.verdict !== 'passed');
  });
  return removed!;
}

type WaiverEvent =
  | { type: 'waiver.recorded'; data: EventDataByType['waiver.recorded'] }
  | { type: 'waiver.removed'; data: EventDataByType['waiver.removed'] };

/**
 * Under the state lock: read, change, write `waivers.json` atomically, then append the change's events to the audit
 * log (after the write, so the log never claims a change that did not happen).
 */
async function updateWaivers(repoRoot: string, change: (file: WaiversFile) => WaiverEvent[]): Promise<void> {
  const paths = ensureTollgateDir(repoRoot);
  await withStateLock(repoRoot, async () => {
    const { file, untrusted } = await readLocalWaivers(repoRoot);
    const events = change(file);
    await writeLocalWaivers(repoRoot, file, untrusted);
    const previous = existsSync(paths.waiverEventsPath) ? await readEventLog(paths.waiverEventsPath) : null;
    const log = openEventLog(paths.waiverEventsPath, {
      // Stryker disable next-line BooleanLiteral: verbose only keeps ephemeral events, and waiver events are durable
      verbose: false,
      parentId: previous ? lastDurableId(previous) : null,
    });
    try {
      for (const event of events) log.emit(event.type, event.data);
    } finally {
      log.close();
    }
  });
}

function matchingIds(ids: readonly string[], wanted: string): string[] {
  const exact = ids.filter((id) => id === wanted);
  if (exact.length > 0 || wanted.length < MIN_PREFIX) return [...new Set(exact)];
  return [...new Set(ids.filter((id) => id.startsWith(wanted)))];
}

function findFinding(findings: readonly LastFinding[], wanted: string): LastFinding {
  const ids = matchingIds(
    findings.map((finding) => finding.id),
    wanted,
  );
  if (ids.length === 0) {
    throw new TollgateError('not_found', `no finding with id "${wanted}" in the last run (see tollgate log)`);
  }
  if (ids.length > 1) {
    throw new TollgateError(
      'usage',
      `finding id "${wanted}" matches ${ids.length} findings (${ids.join(', ')}); give more of the id`,
    );
  }
  // Most recent first: the same id from an older run of another tool loses.
  return findings.find((finding) => finding.id === ids[0])!;
}

/**
 * A pending policy edit is not a risk to accept: its finding's id follows the exact edit, and what ends it is a
 * person accepting the edit, the edit reaching the base, or the file restored (docs/policy.md).
 */
function policyEditRefusal(finding: LastFinding, reader: Reader): TollgateError {
  const what = `finding "${finding.id}" is a pending policy edit${finding.path ? ` (${finding.path})` : ''}, not a risk to accept: a waiver cannot end it`;
  const ends =
    reader === 'person'
      ? 'run `tollgate policy accept` to review and apply the edit, merge it into the base, or restore the file as the base has it'
      : 'it applies once a person accepts it or it is merged into the base; to go on without it, restore the file as the base has it';
  return new TollgateError('usage', `${what}; ${ends}`);
}

function describeFinding(finding: LastFinding): string {
  const where = finding.path ? ` at ${finding.path}${finding.line === undefined ? '' : `:${finding.line}`}` : '';
  return `${finding.tool}: ${finding.title}${where}`;
}

/** `git config user.name`, else `$USER`/`$USERNAME`, else "unknown". */
async function whoIsWaiving(repoRoot: string, env: NodeJS.ProcessEnv): Promise<string> {
  const git = await runProcess('git', ['config', 'user.name'], { cwd: repoRoot, env, timeoutMs: 10_000 });
  // Stryker disable next-line ConditionalExpression: a failed `git config` prints nothing on stdout either
  const name = git.exitCode === 0 ? git.stdout.trim() : '';
  return name || env.USER || env.USERNAME || 'unknown';
}
