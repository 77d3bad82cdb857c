import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { fixedGitEnv } from './change-set/snapshot-git-config.js';
import { childProcess } from './child-process-lazy.js';
import { runningMembers } from './proc-stat.js';
import type { ProcessLedger } from './process-ledger.js';

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
  /**
   * Given at spawn: pauses and resumes reading the child's stdout, so a consumer of `onOutput` slower than the child
   * holds the child back (the pipe fills and it waits) instead of queueing its output in memory.
   */
  outputControl?: (control: OutputControl) => void;
  /**
   * `git` only: run it as the user's own config and environment say, without the fixed object view every git tollgate
   * starts gets (`fixedGitEnv`). For tests that set a repository up as a person would (sparse checkouts, replace refs).
   */
  gitAsConfigured?: boolean;
  /** Records the child's process group while it runs, so a killed tollgate's next run can stop it. */
  ledger?: { record: ProcessLedger; label: string };
}

export interface OutputControl {
  pause(): void;
  resume(): void;
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

/**
 * Kills every live group and waits, synchronously and at most `waitMs`, until nothing in them still runs. The signal
 * handler exits next, and its exit listeners remove what those children were writing (a `git clone` half made): a
 * child that had not yet died would go on writing after the removal and leave part of it behind. A kill is not
 * instant on a busy machine (the child may be mid-write on the other core).
 */
export function killAllChildren(waitMs = 1000): void {
  if (liveGroups.size === 0) return;
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  const deadline = performance.now() + waitMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const running = runningMembers(liveGroups);
    if (running === null || running.length === 0) break;
    if (performance.now() >= deadline) return;
    Atomics.wait(pause, 0, 0, 5);
  }
  // Gone (or past knowing, off Linux): a later call on the way out (an exit listener's) has nothing left to wait for.
  liveGroups.clear();
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
  return new Promise((resolve) => new ChildRun(options, resolve).start(command, args));
}

type Ending = Pick<ProcessResult, 'exitCode' | 'signal'> & { spawnError?: NodeJS.ErrnoException };

/** One child process from spawn to its settled result; the handlers below share its state. */
class ChildRun {
  private readonly started = performance.now();
  private readonly out: CappedBuffer;
  private readonly err: CappedBuffer;
  private child!: ChildProcessWithoutNullStreams;
  private timedOut = false;
  private aborted = false;
  private settled = false;
  private detachedSurvivor = false;
  private lastData = 0;
  private killTimer: NodeJS.Timeout | undefined;
  private timeoutTimer: NodeJS.Timeout | undefined;
  private drainTimer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => {
    this.aborted = true;
    this.stop();
  };

  constructor(
    private readonly options: RunProcessOptions,
    private readonly resolve: (result: ProcessResult) => void,
  ) {
    const cap = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    this.out = new CappedBuffer(cap);
    this.err = new CappedBuffer(cap);
  }

  start(command: string, args: readonly string[]): void {
    const { options } = this;
    const child = childProcess().spawn(command, args, {
      cwd: options.cwd,
      // Every git tollgate starts sees the object view the repository cannot change (snapshot-git-config.ts).
      env:
        command === 'git' && !options.gitAsConfigured
          ? fixedGitEnv(options.env ?? process.env)
          : (options.env ?? process.env),
      detached: true, // its own process group, so a kill reaches grandchildren too
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    if (child.pid !== undefined) {
      liveGroups.add(child.pid);
      options.ledger?.record.started(child.pid, options.ledger.label);
    }
    this.capture('stdout', this.out);
    this.capture('stderr', this.err);
    options.outputControl?.({
      // Once the child has exited, Node resumes its output itself: what is left in the pipe (64 KiB at most) flows.
      pause: () => child.stdout.pause(),
      resume: () => child.stdout.resume(),
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      this.finish({ exitCode: null, signal: null, spawnError: error }),
    );
    child.on('exit', (code, signal) => this.drainAfterExit({ exitCode: code, signal }));
    child.on('close', (code, signal) => this.finish({ exitCode: code, signal }));
    child.stdin.on('error', () => {
      // The child closed stdin early (it does not read it); not our failure.
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();

    if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
      this.timeoutTimer = setTimeout(() => {
        this.timedOut = true;
        this.stop();
      }, options.timeoutMs);
    }
    if (options.signal) {
      if (options.signal.aborted) this.onAbort();
      else options.signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  private capture(stream: 'stdout' | 'stderr', buffer: CappedBuffer): void {
    this.child[stream].on('data', (chunk: Buffer) => {
      this.lastData = performance.now();
      buffer.push(chunk);
      this.options.onOutput?.(stream, chunk);
    });
  }

  /**
   * Whatever the leader left running in its group would hold our pipes open (and 'close' would never come), so the
   * group is killed. Something that left the group (`setsid … &`) is beyond that kill: once the output has had time
   * to drain, stop reading and return, rather than wait as long as the survivor lives.
   */
  private drainAfterExit(ending: Ending): void {
    const { child } = this;
    if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    let rounds = 0;
    const drain = () => {
      rounds += 1;
      if (performance.now() - this.lastData < PIPE_DRAIN_MS && rounds < PIPE_DRAIN_ROUNDS) {
        this.drainTimer = setTimeout(drain, PIPE_DRAIN_MS);
        this.drainTimer.unref();
        return;
      }
      this.detachedSurvivor = true;
      child.stdout.destroy();
      child.stderr.destroy();
      this.finish(ending);
    };
    this.drainTimer = setTimeout(drain, PIPE_DRAIN_MS);
    this.drainTimer.unref();
  }

  private stop(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    killGroup(pid, 'SIGTERM');
    this.killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), this.options.killGraceMs ?? 2000);
    this.killTimer.unref();
  }

  private finish(ending: Ending): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timeoutTimer);
    clearTimeout(this.killTimer);
    clearTimeout(this.drainTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    const pid = this.child.pid;
    if (pid !== undefined) {
      // The leader is gone; make sure nothing it started outlives it.
      killGroup(pid, 'SIGKILL');
      liveGroups.delete(pid);
      this.options.ledger?.record.ended(pid);
    }
    this.resolve({
      ...ending,
      stdout: this.out.text(),
      stderr: this.err.text(),
      timedOut: this.timedOut,
      aborted: this.aborted,
      truncated: this.out.truncated || this.err.truncated,
      durationMs: Math.round(performance.now() - this.started),
      ...(this.detachedSurvivor ? { detachedSurvivor: true } : {}),
    });
  }
}
