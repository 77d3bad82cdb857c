import type { ProgressKind } from '../core/pipeline/execute-tool.js';

/**
 * Live progress on stderr (stdout carries only the report). On a TTY one status line is rewritten in place; elsewhere
 * each message is a plain line, so CI logs and agents reading stderr see the same facts. Heartbeats (a check or
 * reviewer still running, every 10 s) show on a TTY, and elsewhere only when asked for (`--progress`): a log
 * would otherwise fill with them.
 */
export interface ProgressDisplay {
  update(toolName: string, message: string, kind?: ProgressKind): void;
  done(): void;
}

export interface ProgressDisplayOptions {
  quiet?: boolean;
  /** Print heartbeats even when stderr is not a TTY. */
  heartbeats?: boolean;
}

export function createProgressDisplay(
  stream: NodeJS.WriteStream = process.stderr,
  options: ProgressDisplayOptions = {},
): ProgressDisplay {
  if (options.quiet) return { update: () => {}, done: () => {} };
  if (!stream.isTTY) {
    return {
      update: (toolName, message, kind = 'status') => {
        if (kind === 'heartbeat' && !options.heartbeats) return;
        stream.write(`tollgate: ${toolName}: ${message}\n`);
      },
      done: () => {},
    };
  }
  let shown = false;
  return {
    update(toolName, message) {
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      const line = `▸ ${toolName}: ${message}`.replace(/\s+/g, ' ');
      stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
