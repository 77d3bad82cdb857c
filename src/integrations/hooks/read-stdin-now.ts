import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { parsePayload, type StdinRead } from './read-stdin.js';

/**
 * The hook's stdin read on the main thread without `process.stdin` (which loads `net` and the streams for a pipe:
 * 2-3 ms of a stop hook's CPU), where that can never block: `read` when it is whole, else the bytes read so far
 * (`prefix`, often none), which `readStdin` takes before the rest of the stream, so nothing is lost.
 * - A regular file: read to its end (a file never blocks).
 * - A FIFO, on Linux: read through a second, non-blocking open of it (`/proc/self/fd/0`; the agent's descriptor is
 *   blocking, and a blocking read could outlast `readStdin`'s timeout): to its end, or to the point where nothing more
 *   is there yet and what came is one whole JSON object (an agent may keep its end open). Anything short of that goes
 *   on through the stream, with its timeout.
 * - Anything else (a socket, which Node-based agents hand their children and which cannot be opened again, a
 *   terminal, a device) and any error: nothing is read here.
 */
export function readStdinNow(fd = 0): { read: StdinRead } | { prefix: Buffer } {
  const chunks: Buffer[] = [];
  let own: number | undefined;
  try {
    const info = fstatSync(fd);
    if (info.isFile()) return readToEnd(fd, chunks) ? whole(chunks) : { prefix: Buffer.concat(chunks) };
    if (!info.isFIFO() || process.platform !== 'linux') return { prefix: Buffer.alloc(0) };
    own = openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK);
    if (readToEnd(own, chunks)) return whole(chunks);
    // Nothing more yet: whole when what came is a payload, else the stream waits for the rest.
    const text = Buffer.concat(chunks).toString('utf8');
    if (chunks.length > 0 && parsePayload(text).ok) return { read: { kind: 'ok', text } };
  } catch {
    // What was read stays read: the stream goes on from there.
  } finally {
    if (own !== undefined) closeQuietly(own);
  }
  return { prefix: Buffer.concat(chunks) };
}

/** Reads `fd` into `chunks` until its end (true) or until a non-blocking read finds nothing yet (false). */
function readToEnd(fd: number, chunks: Buffer[]): boolean {
  const buffer = Buffer.allocUnsafe(16 * 1024);
  for (;;) {
    let count: number;
    try {
      count = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return false;
      throw error;
    }
    if (count === 0) return true;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Ours, read only: nothing to lose.
  }
}

function whole(chunks: Buffer[]): { read: StdinRead } {
  return { read: { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') } };
}
