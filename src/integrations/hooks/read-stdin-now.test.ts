import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  createReadStream,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { readStdin } from './read-stdin.js';
import { readStdinNow } from './read-stdin-now.js';

// readStdinNow reads a file, (on Linux) a FIFO, or a socket that process.stdin opened, on the main thread, and never
// blocks; what it cannot finish goes on through readStdin with what it read first. Here with real files and FIFOs,
// each opened read-write by the test, so a writer is still there: the agent that keeps its end open. Sockets:
// test/cli/stop-hook-stdin.test.ts, through the built CLI.
const linux = process.platform === 'linux';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-stdin-now-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fifos = 0;
/** A FIFO holding `text`, open read-write (a writer stays), and its descriptor; closed after `use`. */
const withFifo = <T>(text: string | Buffer, use: (fd: number) => T): T => {
  const path = join(dir, `fifo-${fifos++}`);
  execFileSync('mkfifo', [path]);
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  try {
    if (text.length > 0) writeSync(fd, typeof text === 'string' ? Buffer.from(text) : text);
    return use(fd);
  } finally {
    closeSync(fd);
  }
};

const PAYLOAD = JSON.stringify({ session_id: 's', cwd: '/tmp/x', hook_event_name: 'Stop' });

describe('readStdinNow', () => {
  test('a file is read to its end, from where its offset stands', () => {
    const path = join(dir, 'payload.json');
    writeFileSync(path, `xx${PAYLOAD}`);
    const fd = openSync(path, 'r');
    try {
      expect(readStdinNow(fd)).toEqual({ read: { kind: 'ok', text: `xx${PAYLOAD}` } });
      expect(readStdinNow(fd)).toEqual({ read: { kind: 'ok', text: '' } });
    } finally {
      closeSync(fd);
    }
  });

  test.runIf(linux)('a FIFO whose writer keeps it open: a whole payload is taken, anything less is handed on', () => {
    withFifo(`\uFEFF ${PAYLOAD}\n`, (fd) =>
      expect(readStdinNow(fd)).toEqual({ read: { kind: 'ok', text: `\uFEFF ${PAYLOAD}\n` } }),
    );
    withFifo(PAYLOAD.slice(0, 20), (fd) => {
      const now = readStdinNow(fd);
      expect('prefix' in now && now.prefix.toString()).toBe(PAYLOAD.slice(0, 20));
    });
    withFifo('[1,2]', (fd) => expect(readStdinNow(fd)).toEqual({ prefix: Buffer.from('[1,2]') }));
    withFifo('', (fd) => expect(readStdinNow(fd)).toEqual({ prefix: Buffer.alloc(0) }));
  });

  test.runIf(linux)('a FIFO larger than one read is read whole', () => {
    const big = JSON.stringify({ cwd: '/tmp/x', transcript: 'é'.repeat(20_000) });
    withFifo(big, (fd) => expect(readStdinNow(fd)).toEqual({ read: { kind: 'ok', text: big } }));
  });

  test('past maxBytes the rest is left to the stream, which goes on from there', async () => {
    const big = JSON.stringify({ cwd: '/tmp/x', transcript: 'x'.repeat(40_000) });
    const path = join(dir, 'big.json');
    writeFileSync(path, big);
    const fd = openSync(path, 'r');
    try {
      const now = readStdinNow(fd, () => process.stdin, 1);
      expect('prefix' in now && now.prefix.length).toBe(16 * 1024); // one read
      const prefix = 'prefix' in now ? now.prefix : Buffer.alloc(0);
      const rest = createReadStream('', { fd, autoClose: false });
      expect(await readStdin(rest, 60_000, prefix)).toEqual({ kind: 'ok', text: big });
    } finally {
      closeSync(fd);
    }
  });

  test('a device, or a descriptor not open, is not read here', () => {
    const devNull = openSync('/dev/null', 'r');
    try {
      expect(readStdinNow(devNull)).toEqual({ prefix: Buffer.alloc(0) });
    } finally {
      closeSync(devNull);
    }
    expect(readStdinNow(987_654)).toEqual({ prefix: Buffer.alloc(0) }); // not open
  });

  test.runIf(linux)('what it read and what the stream reads after are the payload, cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
        fc.nat(),
        async (object, at) => {
          const bytes = Buffer.from(JSON.stringify(object));
          const cut = at % (bytes.length + 1);
          const now = withFifo(bytes.subarray(0, cut), (fd) => readStdinNow(fd));
          if ('read' in now) {
            // Taken whole only when the bytes so far are one JSON object.
            expect(now.read).toEqual({ kind: 'ok', text: bytes.toString('utf8') });
            return;
          }
          expect(now.prefix.equals(bytes.subarray(0, cut))).toBe(true);
          const rest = new PassThrough();
          const read = readStdin(rest, 60_000, now.prefix);
          rest.end(bytes.subarray(cut));
          expect(await read).toEqual({ kind: 'ok', text: bytes.toString('utf8') });
        },
      ),
      { numRuns: propertyRuns(30, 150) },
    );
  });
});
