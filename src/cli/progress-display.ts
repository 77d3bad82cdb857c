/**
 * Live progress on stderr (stdout carries only the report). On a TTY one status line is rewritten in place; elsewhere
 * each message is a plain line, so CI logs and agents reading stderr see the same facts.
 */
export interface ProgressDisplay {
  update(toolName: string, message: string): void;
  done(): void;
}

export function createProgressDisplay(stream: NodeJS.WriteStream = process.stderr, quiet = false): ProgressDisplay {
  if (quiet) return { update: () => {}, done: () => {} };
  if (!stream.isTTY) {
    return {
      update: (toolName, message) => stream.write(`tollgate: ${toolName}: ${message}\n`),
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
