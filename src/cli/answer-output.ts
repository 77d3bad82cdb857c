import { writeSync } from 'node:fs';
import { ExitCode, errorMessage } from '../core/errors.js';
import { installStreamErrorHandlers } from './process-handlers.js';

/**
 * Writes a fast path's whole answer to standard output and resolves once every byte is out, so that the process may
 * exit at once (bin/tollgate.cjs does: a short process's teardown cost more than its answer). The bytes go straight
 * to descriptor 1 with write(2): making `process.stdout` (a stream over a pipe or a terminal) cost a fast path more
 * than the write. A descriptor that would block (a non-blocking pipe that is full) gets the rest through
 * `process.stdout`, which waits for the reader. A reader that closed early (`EPIPE`) is not an error and keeps the
 * exit code; any other failure is one line on stderr and exit code 3.
 */
export async function writeAnswer(text: string, fd = 1): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') {
      failed(error);
      return;
    }
  }
  installStreamErrorHandlers();
  await new Promise<void>((resolve) => {
    process.stdout.write(bytes.subarray(written), () => resolve());
  });
}

function failed(error: unknown): void {
  try {
    process.stderr.write(`tollgate: cannot write output: ${errorMessage(error)}\n`);
  } catch {
    // stderr is gone too: nothing left to tell
  }
  process.exitCode = ExitCode.internal;
}
