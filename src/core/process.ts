import { spawn } from 'node:child_process';

/**
 * The one way tollgate runs a child process: argv only (the user's own `checks[].run` is the single place a shell is
 * used, and it is passed as `['sh', '-c', run]`), a timeout and an AbortSignal that kill the whole process group,
 * and a cap on captured output so a chatty child cannot exhaust memory.
 */
export interface RunProcessOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, then stdin is closed. Without it stdin is closed at once (never inherited: no hangs on a prompt). */
  input?: string | Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Per stream; what is past it is dropped and `truncated` set. Default 8 MiB. */
  maxOutputBytes?: number;
  /** Called with every chunk as it arrives (for full logs kept on disk while the capture stays capped). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /** Grace period between SIGTERM and SIGKILL to the group. Default 2 s. */
  killGraceMs?: number;
}

export interface ProcessResult {
  /** Exit code, or null when the process ended on a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
  durationMs: number;
  /** Set when the process could not be started (ENOENT, EACCES). */
  spawnError?: NodeJS.ErrnoException;
  /**
   * Set when the process had ended but something it started outside its process group (`setsid … &`, a daemon)
   * still held its output open: tollgate stopped reading rather than wait for it, and that survivor may still run.
   */
  detachedSurvivor?: boolean;
}

/**
 * How long output may stay open after the process itself ended before a detached survivor is assumed (re-armed a few
 * times while data still arrives, so a slow reader on a busy machine never loses the last lines).
 */
const PIPE_DRAIN_MS = 1000;
const PIPE_DRAIN_ROUNDS = 5;

const DEFAULT_MAX_OUTPUT = 8 * 1024 * 1024;

/** Live process groups, so that an interrupted tollgate can take its children down with it. */
const liveGroups = new Set<number>();

export function killAllChildren(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const pid of liveGroups) killGroup(pid, signal);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

class CappedBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    if (this.size >= this.cap) {
      this.truncated = true;
      return;
    }
    const room = this.cap - this.size;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessResult> {
  const started = performance.now();
  const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const out = new CappedBuffer(cap);
  const err = new CappedBuffer(cap);
  return new Promise((resolve) => {
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let detachedSurvivor = false;
    let lastData = 0;

    const finish = (partial: Pick<ProcessResult, 'exitCode' | 'signal'> & { spawnError?: NodeJS.ErrnoException }) => {
      if (settled) return;
      settled = true;
      if (timeoutTimer) clearTimeout(timeoutTimer);
      if (killTimer) clearTimeout(killTimer);
      if (drainTimer) clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (child.pid !== undefined) {
        // The leader is gone; make sure nothing it started outlives it.
        killGroup(child.pid, 'SIGKILL');
        liveGroups.delete(child.pid);
      }
      resolve({
        ...partial,
        stdout: out.text(),
        stderr: err.text(),
        timedOut,
        aborted,
        truncated: out.truncated || err.truncated,
        durationMs: Math.round(performance.now() - started),
        ...(detachedSurvivor ? { detachedSurvivor } : {}),
      });
    };

    const stop = () => {
      if (child.pid === undefined) return;
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      }, options.killGraceMs ?? 2000);
      killTimer.unref();
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };

    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true, // its own process group, so a kill reaches grandchildren too
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) liveGroups.add(child.pid);

    child.stdout.on('data', (chunk: Buffer) => {
      lastData = performance.now();
      out.push(chunk);
      options.onOutput?.('stdout', chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      lastData = performance.now();
      err.push(chunk);
      options.onOutput?.('stderr', chunk);
    });
    child.on('error', (error: NodeJS.ErrnoException) => finish({ exitCode: null, signal: null, spawnError: error }));
    child.on('exit', (code, signal) => {
      // Whatever the leader left running in its group would hold our pipes open (and 'close' would never come).
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
      // Something that left the group (`setsid … &`) is beyond that kill: once the output has had time to drain,
      // stop reading and return, rather than wait as long as the survivor lives.
      let rounds = 0;
      const drain = () => {
        rounds += 1;
        if (performance.now() - lastData < PIPE_DRAIN_MS && rounds < PIPE_DRAIN_ROUNDS) {
          drainTimer = setTimeout(drain, PIPE_DRAIN_MS);
          drainTimer.unref();
          return;
        }
        detachedSurvivor = true;
        child.stdout.destroy();
        child.stderr.destroy();
        finish({ exitCode: code, signal });
      };
      drainTimer = setTimeout(drain, PIPE_DRAIN_MS);
      drainTimer.unref();
    });
    child.on('close', (code, signal) => finish({ exitCode: code, signal }));
    child.stdin.on('error', () => {
      // The child closed stdin early (it does not read it); not our failure.
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();

    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      timeoutTimer = setTimeout(() => {
        timedOut = true;
        stop();
      }, options.timeoutMs);
    }
    if (options.signal) {
      if (options.signal.aborted) onAbort();
      else options.signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}
