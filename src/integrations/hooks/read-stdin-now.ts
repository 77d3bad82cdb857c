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
 * - A socket (Node-based agents hand their children one; it cannot be opened again): once libuv made it
 *   non-blocking (`uv_pipe_open`), through a handle of our own (`openedNonBlocking`) or else by making `stdin()`
 *   (the stream the rest would go through, `process.stdin`) a `net.Socket` on it, it is read here the same way,
 *   without starting the stream: reading it through the stream cost a stop about 1 ms of CPU more. Not an IPC
 *   channel, and not on Windows; without our own handle, not a datagram socket either (Node does not make one a
 *   `net.Socket` of its own).
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
      if (!nonBlockingSocket(stdin, fd)) return { prefix: Buffer.alloc(0) };
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
 * True when the socket on `fd` is non-blocking now and no IPC channel is in play: opened by a libuv pipe handle of
 * our own (`openedNonBlocking`), else when the stream `stdin()` makes is a `net.Socket` (libuv opened its descriptor
 * non-blocking). `net` is loaded by then (making the socket loads it), so requiring it costs nothing more.
 */
function nonBlockingSocket(stdin: () => Readable, fd: number): boolean {
  if (process.platform === 'win32' || process.channel !== undefined) return false;
  if (openedNonBlocking(fd)) return true;
  const stream = stdin();
  const { Socket } = builtinModule<typeof Net>('node:net');
  return stream instanceof Socket;
}

interface PipeBinding {
  Pipe?: new (type: number) => { open?: (fd: number) => unknown };
  constants?: { SOCKET?: unknown };
}

/** Our own handles on the standard descriptors, kept for the process's life (one is made at most). */
const held: unknown[] = [];

/**
 * Opens the socket on `fd` (0-2 only) with a libuv pipe handle of its own, as `net.Socket` does for
 * `process.stdin` (`uv_pipe_open` makes the descriptor non-blocking), without loading `net` and making the stream:
 * 1.5 ms of a stop's CPU and 60 page faults (docs/benchmarks.md, "The fast paths' built-in modules and bundles").
 * Through `process.binding('pipe_wrap')`, Node's own handle class, whose shape is checked first, since a wrong
 * argument would abort the process; not where it would print Node's deprecation warning (`--pending-deprecation`).
 * The handle never reads and is never closed: libuv leaves the standard descriptors open, so a `process.stdin` made
 * later (the rest of a payload, the full path) reads the same descriptor through its own. False on any doubt.
 */
function openedNonBlocking(fd: number): boolean {
  if (fd < 0 || fd > 2 || held.length > 0 || pendingDeprecation()) return false;
  try {
    const binding = (process as { binding?: (name: string) => unknown }).binding?.('pipe_wrap') as
      | PipeBinding
      | undefined;
    const type = binding?.constants?.SOCKET;
    if (typeof binding?.Pipe !== 'function' || typeof type !== 'number' || !Number.isInteger(type)) return false;
    const handle = new binding.Pipe(type);
    if (typeof handle.open !== 'function') return false;
    const status = handle.open(fd);
    held.push(handle);
    return status === undefined || status === 0;
  } catch {
    return false;
  }
}

function pendingDeprecation(): boolean {
  const options = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  return /pending[-_]deprecation/.test(options) || process.env.NODE_PENDING_DEPRECATION === '1';
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
