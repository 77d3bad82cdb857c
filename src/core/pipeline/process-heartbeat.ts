import type { ProcessResult, RunProcessOptions } from '../process.js';
import { stripAnsi } from '../terminal-text.js';

/** How often a long-running child process is reported as still running (TOLLGATE_HEARTBEAT_MS overrides, for tests). */
const HEARTBEAT_MS = 10_000;
/** The most of a child's recent output one partial result carries. */
const PARTIAL_OUTPUT_CHARS = 4096;

export type RunProcessFn = (
  command: string,
  args: readonly string[],
  options: RunProcessOptions,
) => Promise<ProcessResult>;

/**
 * Wraps a tool's `runProcess` so that a child running longer than `intervalMs` is announced every `intervalMs`: what
 * runs, for how long, and the last line it printed. A check or a reviewer that runs for minutes is then visibly alive
 * (or visibly stuck on one line) instead of silent.
 */
export function withHeartbeat(
  run: RunProcessFn,
  intervalMs: number,
  beat: (message: string, partialOutput: string) => void,
  now: () => number = Date.now,
): RunProcessFn {
  return async (command, args, options) => {
    const started = now();
    let lastLine = '';
    // What the child printed since the last beat (its tail, bounded): a long check's partial result.
    let recent = '';
    const timer = setInterval(() => {
      const elapsed = Math.round((now() - started) / 1000);
      const output = lastLine === '' ? 'no output yet' : `last output: ${lastLine}`;
      beat(`still running \`${labelOf(command, args)}\` after ${elapsed}s; ${output}`, recent);
      recent = '';
    }, intervalMs);
    timer.unref();
    try {
      return await run(command, args, {
        ...options,
        onOutput: (stream, chunk) => {
          const line = lastNonEmptyLine(chunk);
          if (line !== null) lastLine = line;
          recent = `${recent}${stripAnsi(chunk.toString('utf8'))}`.slice(-PARTIAL_OUTPUT_CHARS);
          options.onOutput?.(stream, chunk);
        },
      });
    } finally {
      clearInterval(timer);
    }
  };
}

/** `sh -c "npm test"` reads as `npm test`; anything else as its argv, cut to a line's worth. */
function labelOf(command: string, args: readonly string[]): string {
  const text = command === 'sh' && args[0] === '-c' && args[1] !== undefined ? args[1] : [command, ...args].join(' ');
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function lastNonEmptyLine(chunk: Buffer): string | null {
  const lines = chunk.toString('utf8').split(/\r?\n|\r/);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = stripAnsi(lines[index]!).trim();
    if (line !== '') return line.length > 160 ? `${line.slice(0, 159)}…` : line;
  }
  return null;
}

/** The interval in force: TOLLGATE_HEARTBEAT_MS when it is a positive whole number, else the default. */
export function heartbeatInterval(env: NodeJS.ProcessEnv): number {
  const value = Number(env.TOLLGATE_HEARTBEAT_MS);
  return Number.isInteger(value) && value > 0 ? value : HEARTBEAT_MS;
}
