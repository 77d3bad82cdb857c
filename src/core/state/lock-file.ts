import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { errorMessage, TollgateError } from '../errors.js';
import { isoTime } from '../iso-time.js';
import { os } from '../os-lazy.js';

/**
 * The lock file itself: its content, its creation in one step, and its release (also on exit and fatal signals). No
 * zod and no waiting here, so the no-change run's small bundle can take the run lock once, or leave the run to the
 * full CLI, which waits and takes over stale locks (lock.ts).
 */

/** What a lock file says about its holder. `token` tells our own lock from a successor's when releasing. */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
  token: string;
}

export interface HeldLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

/** This process as a lock's holder, and the file content that says so. */
export function newLockHolder(command: string | undefined): { holder: LockHolder; content: string } {
  const holder: LockHolder = {
    pid: process.pid,
    host: os().hostname(),
    startedAt: isoTime(),
    command: command ?? process.argv.slice(1).join(' '),
    token: randomBytes(8).toString('hex'),
  };
  return { holder, content: `${JSON.stringify(holder)}\n` };
}

/** The lock at `path` if it was free; null when anyone holds it (live or stale: the full CLI sorts that out). */
export function tryLockOnce(path: string, command: string): HeldLock | null {
  const { holder, content } = newLockHolder(command);
  return tryCreate(path, content) ? registerHeld(path, holder, content) : null;
}

/**
 * Creates the lock file with its whole content at once: write a private temp file, then hard-link it into place.
 * `link` fails with EEXIST like O_EXCL does, and no reader ever sees a half-written lock. File systems without hard
 * links get O_EXCL plus one write.
 */
export function tryCreate(path: string, content: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, content, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    throw new TollgateError('io', `${path}: could not create the lock: ${errorMessage(error)}`);
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP')
      return createExclusive(path, content);
    throw new TollgateError('io', `${path}: could not create the lock: ${errorMessage(error)}`);
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // Already gone.
    }
  }
}

function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new TollgateError('io', `${path}: could not create the lock: ${errorMessage(error)}`);
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

// Locks this process holds, released on exit and (when nothing else handles them) on fatal signals.
const held = new Map<string, { path: string; content: string }>();
const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function registerHeld(path: string, holder: LockHolder, content: string): HeldLock {
  held.set(holder.token, { path, content });
  installExitHandlers();
  let released = false;
  return {
    path,
    holder,
    release() {
      if (released) return;
      released = true;
      held.delete(holder.token);
      removeIfOurs(path, content);
      if (held.size === 0) removeExitHandlers();
    },
  };
}

function removeIfOurs(path: string, content: string): void {
  try {
    if (readFileSync(path, 'utf8') === content) unlinkSync(path);
  } catch {
    // Already gone, or taken over after we were presumed dead: not ours to remove.
  }
}

function releaseAll(): void {
  for (const { path, content } of held.values()) removeIfOurs(path, content);
  held.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // Another handler (the run's own interrupt handling) decides how the process ends, and the exit handler releases
  // the lock then. Alone, we release and let the signal take its default course.
  if (process.listenerCount(signal) > 1) return;
  releaseAll();
  removeExitHandlers();
  process.kill(process.pid, signal);
}

let installed = false;

function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  process.on('exit', releaseAll);
  // Prepended, so that we run before any `once` handler removes itself and we can count who else is listening.
  for (const signal of EXIT_SIGNALS) process.prependListener(signal, onSignal);
}

function removeExitHandlers(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', releaseAll);
  for (const signal of EXIT_SIGNALS) process.off(signal, onSignal);
}
