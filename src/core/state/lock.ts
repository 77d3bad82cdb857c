import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { formatDuration } from '../config/units.js';
import { errorMessage, TollgateError } from '../errors.js';
import { lazy } from '../lazy.js';
import { type HeldLock, type LockHolder, newLockHolder, registerHeld, tryCreate } from './lock-file.js';
import { ensureTollgateDir, TOLLGATE_DIR } from './tollgate-dir.js';

export type { HeldLock, LockHolder } from './lock-file.js';

/** A lock file's holder, checked: another process wrote it. */
const lockHolderSchema = lazy(
  (): z.ZodType<LockHolder> =>
    z.object({
      pid: z.number().int(),
      host: z.string(),
      startedAt: z.string(),
      command: z.string(),
      token: z.string(),
    }),
);

export interface AcquireLockOptions {
  /** false: fail at once when a live process holds the lock (`--no-wait`). */
  wait: boolean;
  /** How long to wait before giving up. Default 10 minutes. */
  timeoutMs?: number;
  /**
   * Called when acquiring starts waiting, and again whenever the holder changes, with a description for a progress
   * line ("another tollgate run (pid 1234, started 12s ago)").
   */
  onWait?(description: string, holder: LockHolder): void;
  /** Recorded in the lock file for whoever finds it busy. Default: this process's argv. */
  command?: string;
}

const DEFAULT_RUN_LOCK_TIMEOUT_MS = 10 * 60_000;
const FIRST_POLL_MS = 25;
const MAX_POLL_MS = 1000;
/** A lock file we cannot parse is only taken over once it is this old: we never write a partial one, but be sure. */
const GARBAGE_GRACE_MS = 2000;
/** A takeover guard older than this belongs to a process that died mid-takeover. */
const STALE_GUARD_MS = 10_000;

/**
 * The repository's run lock, `.tollgate/run.lock`: one `tollgate run` at a time per repository. A lock whose holder
 * (a pid on this host) is gone is taken over; a live holder makes us fail at once (`wait: false`) or poll with
 * backoff until it is free or `timeoutMs` has passed.
 */
export function acquireLock(repoRoot: string, options: AcquireLockOptions): Promise<HeldLock> {
  const paths = ensureTollgateDir(repoRoot);
  const label = `${TOLLGATE_DIR}/run.lock`;
  const { onWait } = options;
  return acquireFileLock(paths.lockPath, {
    ...options,
    onWait: onWait && ((description, holder) => onWait(`another tollgate run (${description})`, holder)),
    timeoutMs: options.timeoutMs ?? DEFAULT_RUN_LOCK_TIMEOUT_MS,
    busyMessage: (holder, waitedMs) =>
      waitedMs === null
        ? `another tollgate run (${describeHolder(holder)}) holds ${label}; wait for it or rerun without --no-wait`
        : `another tollgate run (${describeHolder(holder)}) holds ${label}; gave up after waiting ${formatAge(waitedMs)}: wait for that run to finish, or stop it (pid ${holder.pid})`,
  });
}

export interface AcquireFileLockOptions extends AcquireLockOptions {
  timeoutMs: number;
  /** The error text when the lock stays busy; `waitedMs` is null when we did not wait. */
  busyMessage(holder: LockHolder, waitedMs: number | null): string;
  /** Longest pause between polls. Default 1 s; short locks poll faster. */
  maxPollMs?: number;
}

/** The mechanism behind `acquireLock`, for any lock file (the short `state.lock` too). */
export async function acquireFileLock(path: string, options: AcquireFileLockOptions): Promise<HeldLock> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  const { holder, content } = newLockHolder(options.command);
  let pollMs = FIRST_POLL_MS;
  let lastNotifiedToken: string | null = null;

  for (;;) {
    if (tryCreate(path, content)) return registerHeld(path, holder, content);
    const existing = readLockFile(path);
    if (existing.kind === 'missing') continue; // Released between our attempt and the read: try again at once.
    if (isStale(existing)) {
      if (takeOver(path, existing.raw) === 'guard_busy') await sleep(FIRST_POLL_MS);
      continue;
    }
    if (existing.kind === 'garbage') {
      // Too fresh to call stale; it is being replaced or will age into a takeover.
      await sleep(FIRST_POLL_MS);
      continue;
    }
    const now = Date.now();
    if (!options.wait) throw new TollgateError('lock_busy', options.busyMessage(existing.holder, null));
    if (now >= deadline) throw new TollgateError('lock_busy', options.busyMessage(existing.holder, now - started));
    if (existing.holder.token !== lastNotifiedToken) {
      lastNotifiedToken = existing.holder.token;
      options.onWait?.(describeHolder(existing.holder), existing.holder);
    }
    // Jitter keeps two waiters from polling in lockstep.
    await sleep(Math.min(pollMs + Math.random() * pollMs * 0.5, Math.max(1, deadline - now)));
    pollMs = Math.min(pollMs * 2, options.maxPollMs ?? MAX_POLL_MS);
  }
}

/** "pid 1234, started 12s ago" (with the host when it is not this one). */
export function describeHolder(holder: LockHolder, now: number = Date.now()): string {
  const where = holder.host === hostname() ? '' : ` on host ${JSON.stringify(holder.host)}`;
  const startedAt = Date.parse(holder.startedAt);
  const age = Number.isNaN(startedAt) ? 'at an unknown time' : `${formatAge(now - startedAt)} ago`;
  return `pid ${holder.pid}${where}, started ${age}`;
}

function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 60 ? `${seconds}s` : formatDuration(seconds * 1000);
}

type LockFileRead =
  | { kind: 'missing' }
  | { kind: 'held'; raw: string; holder: LockHolder }
  | { kind: 'garbage'; raw: string; ageMs: number };

function readLockFile(path: string): LockFileRead {
  let raw: string;
  let ageMs: number;
  try {
    raw = readFileSync(path, 'utf8');
    ageMs = Date.now() - statSync(path).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw new TollgateError('io', `${path}: could not read the lock: ${errorMessage(error)}`);
  }
  try {
    const parsed = lockHolderSchema().safeParse(JSON.parse(raw));
    if (parsed.success) return { kind: 'held', raw, holder: parsed.data };
  } catch {
    // Falls through to garbage.
  }
  return { kind: 'garbage', raw, ageMs };
}

function isStale(read: LockFileRead): boolean {
  switch (read.kind) {
    case 'missing':
      return false;
    case 'garbage':
      return read.ageMs > GARBAGE_GRACE_MS;
    case 'held':
      // A holder on another host (a repository on a shared file system) cannot be checked: it counts as live.
      return read.holder.host === hostname() && !isProcessAlive(read.holder.pid);
  }
}

/** pid reuse can make a dead holder look alive; then waiting times out with a message that names the pid. */
function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock without ever removing a live one: two processes that both saw the same stale lock must not
 * end up with one deleting the other's fresh lock. So the removal happens under a short guard file, and only if the
 * lock still holds exactly the stale content.
 */
function takeOver(path: string, staleRaw: string): 'done' | 'guard_busy' {
  const guard = `${path}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(guard).mtimeMs > STALE_GUARD_MS) unlinkSync(guard);
    } catch {
      // Gone already.
    }
    return 'guard_busy';
  }
  try {
    writeSync(fd, String(process.pid));
    closeSync(fd);
    const current = readLockFile(path);
    if (current.kind !== 'missing' && current.raw === staleRaw) unlinkSync(path);
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      // Gone already.
    }
  }
  return 'done';
}

const STATE_LOCK_TIMEOUT_MS = 30_000;
const STATE_LOCK_MAX_POLL_MS = 50;

/** Updates from this process queue here first, so they never poll the lock file against each other. */
const stateQueues = new Map<string, Promise<unknown>>();

/**
 * Runs `update` holding `.tollgate/state.lock`, the short lock around every read-modify-write of `state.json` and
 * `waivers.json`: the run lock does not cover `tollgate waive` or MCP calls, and two writers must not lose each
 * other's updates.
 */
export async function withStateLock<T>(repoRoot: string, update: () => Promise<T>): Promise<T> {
  const paths = ensureTollgateDir(repoRoot);
  const previous = stateQueues.get(paths.stateLockPath) ?? Promise.resolve();
  const turn = previous.catch(() => {}).then(() => underStateLock(paths.stateLockPath, update));
  const tail = turn.catch(() => {});
  stateQueues.set(paths.stateLockPath, tail);
  try {
    return await turn;
  } finally {
    if (stateQueues.get(paths.stateLockPath) === tail) stateQueues.delete(paths.stateLockPath);
  }
}

async function underStateLock<T>(path: string, update: () => Promise<T>): Promise<T> {
  const label = `${TOLLGATE_DIR}/state.lock`;
  const lock = await acquireFileLock(path, {
    wait: true,
    timeoutMs: STATE_LOCK_TIMEOUT_MS,
    maxPollMs: STATE_LOCK_MAX_POLL_MS,
    command: 'state update',
    busyMessage: (holder) =>
      `${label}: still held by ${describeHolder(holder)} after ${formatAge(STATE_LOCK_TIMEOUT_MS)}; if no tollgate is running, delete it`,
  });
  try {
    return await update();
  } finally {
    lock.release();
  }
}
