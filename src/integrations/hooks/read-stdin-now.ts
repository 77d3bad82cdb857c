import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type * as Net from 'node:net';
import type { Readable } from 'node:stream';
import { builtinModule } from '../../core/builtin-module.js';
import { parsePayload, type StdinRead } from './read-stdin.js';

/**
 * The hook's stdin read on the main thread, without reading through `process.stdin` (which loads `net` and the
 * streams for a pipe: 2-3 ms of a stop hook's CPU), where that can never block: `read` when it is whole, else the bytes read so far
 * (`prefix`, often none), which `readStdin` takes before the rest of the stream, so nothing is lost.
 * - A regular file: read to its end (a file never blocks).
 * - A FIFO, on Linux: read through a second, non-blocking open of it (`/proc/self/fd/0`; the agent's descriptor is
 *   blocking, and a blocking read could outlast `readStdin`'s timeout): to its end, or to the point where nothing more
 *   is there yet and what came is one whole JSON object (an agent may keep its end open). Anything short of that goes
 *   on through the stream, with its timeout.
 * - A socket (Node-based agents hand their children one; it cannot be opened again): once `stdin()` (the stream
 *   the rest would go through, `process.stdin`) is a `net.Socket` on it, which libuv made non-blocking when it opened
 *   it (`uv_pipe_open`, `uv_tcp_open`), it is read here the same way, without starting the stream: reading it through
 *   the stream cost a stop about 1 ms of CPU more. Not a datagram socket, or an IPC channel (Node does not make
 *   those a `net.Socket` of its own), and not on Windows.
 * - Anything else (a terminal, a device) and any error: nothing is read here.
 * At most about `maxBytes` are read here (a writer that never stops must not hold the main thread past the stream's
 * timeout); the rest goes through the stream. `stdin` must be the stream on `fd` (process.stdin on 0).
 */
export function readStdinNow(
  fd = 0,
  stdin: () => Readable = () => process.stdin,
  maxBytes = MAX_BYTES_NOW,
): { read: StdinRead } | { prefix: Buffer } {
  const chunks: Buffer[] = [];
  let own: number | undefined;
  try {
    const info = fstatSync(fd);
    if (info.isFile()) return readToEnd(fd, chunks, maxBytes) ? whole(chunks) : { prefix: Buffer.concat(chunks) };
    if (info.isSocket()) {
      if (!nonBlockingSocket(stdin)) return { prefix: Buffer.alloc(0) };
      return readToEnd(fd, chunks, maxBytes) ? whole(chunks) : wholePayloadOrPrefix(chunks);
    }
    if (!info.isFIFO() || process.platform !== 'linux') return { prefix: Buffer.alloc(0) };
    own = openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK);
    if (readToEnd(own, chunks, maxBytes)) return whole(chunks);
    return wholePayloadOrPrefix(chunks);
  } catch {
    // What was read stays read: the stream goes on from there.
  } finally {
    if (own !== undefined) closeQuietly(own);
  }
  return { prefix: Buffer.concat(chunks) };
}

/** Nothing more yet: whole when what came is a payload, else the stream waits for the rest. */
function wholePayloadOrPrefix(chunks: Buffer[]): { read: StdinRead } | { prefix: Buffer } {
  const text = Buffer.concat(chunks).toString('utf8');
  if (chunks.length > 0 && parsePayload(text).ok) return { read: { kind: 'ok', text } };
  return { prefix: Buffer.concat(chunks) };
}

/**
 * True when the stream `stdin()` makes is a `net.Socket` (libuv opened its descriptor non-blocking) and no IPC
 * channel is in play. `net` is loaded by then (making the socket loads it), so requiring it costs nothing more.
 */
function nonBlockingSocket(stdin: () => Readable): boolean {
  if (process.platform === 'win32' || process.channel !== undefined) return false;
  const stream = stdin();
  const { Socket } = builtinModule<typeof Net>('node:net');
  return stream instanceof Socket;
}

/** Agents' payloads are a few kilobytes (a transcript is passed by its path). */
const MAX_BYTES_NOW = 8 * 1024 * 1024;

/**
 * Reads `fd` into `chunks` until its end (true), or until a non-blocking read finds nothing yet or `maxBytes` are
 * read (false).
 */
function readToEnd(fd: number, chunks: Buffer[], maxBytes: number): boolean {
  const buffer = Buffer.allocUnsafe(16 * 1024);
  for (let total = 0; total < maxBytes; ) {
    let count: number;
    try {
      count = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return false;
      throw error;
    }
    if (count === 0) return true;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
    total += count;
  }
  return false;
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
