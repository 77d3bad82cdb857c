import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';

// Each test decides what write(2) does: a short write, a full non-blocking pipe, a closed reader, a broken disk.
const writes: Array<(bytes: Buffer, offset: number, length: number) => number> = [];
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  return {
    ...fs,
    writeSync: (fd: number, bytes: Buffer, offset: number, length: number) => {
      const next = writes.shift();
      return next ? next(bytes, offset, length) : fs.writeSync(fd, bytes, offset, length);
    },
  };
});

const { writeAnswer } = await import('./answer-output.js');

const failure = (code: string) => () => {
  throw Object.assign(new Error(`${code}: write failed`), { code });
};

describe('writeAnswer', () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    writes.length = 0;
    process.exitCode = exitCode;
    vi.restoreAllMocks();
  });

  test('writes every byte of the answer to the descriptor, across short writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-answer-'));
    try {
      const file = join(dir, 'out.txt');
      const fd = openSync(file, 'w');
      const text = `# tollgate: PASSED ✓ ${'é'.repeat(5000)}\n`;
      const real = (await vi.importActual<typeof import('node:fs')>('node:fs')).writeSync;
      // Two short writes first, as a pipe may give.
      writes.push(
        (bytes, offset) => real(fd, bytes, offset, 3),
        (bytes, offset) => real(fd, bytes, offset, 1000),
      );
      await writeAnswer(text, fd);
      closeSync(fd);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(process.exitCode).toBe(exitCode);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a descriptor that would block gets the rest through process.stdout, and resolves once it is written', async () => {
    const streamed: Buffer[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: Buffer, done: () => void) => {
      streamed.push(Buffer.from(chunk));
      setImmediate(done);
      return true;
    }) as never);
    writes.push(() => 4, failure('EAGAIN'));
    await writeAnswer('allow: nothing changed\n');
    expect(Buffer.concat(streamed).toString()).toBe('w: nothing changed\n');
  });

  test('a reader that closed early is not an error: no message, the exit code stands', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.exitCode = 0;
    writes.push(failure('EPIPE'));
    await writeAnswer('{}\n');
    expect(stderr).not.toHaveBeenCalled();
    expect(process.exitCode).toBe(0);
  });

  test('any other failure is one line on stderr and exit code 3', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.exitCode = 0;
    writes.push(failure('EIO'));
    await writeAnswer('{}\n');
    expect(stderr).toHaveBeenCalledTimes(1);
    expect(String(stderr.mock.calls[0]![0])).toMatch(/^tollgate: cannot write output: .*EIO.*\n$/);
    expect(process.exitCode).toBe(3);
  });
});
