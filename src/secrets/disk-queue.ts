import { ReusableFileReader } from './file-reader.js';
import {
  emptyScanOutcome,
  HARD_MAX_BYTES,
  type ScanOutcome,
  type ScanTargetsOptions,
  type SkippedTarget,
  scanContent,
  tooLarge,
} from './scan-targets.js';
import { STREAM_BYTES, scanFileInWindows } from './stream-file.js';

/**
 * The work loop each scanning thread runs (the main thread and every worker alike): claim the next file from a queue
 * shared through one atomic counter, read it synchronously into a reused buffer, scan it. No message per file, and a
 * thread that gets large files simply claims fewer. Files are listed largest first so no thread ends with a big one.
 * Files over `STREAM_BYTES` are scanned from disk in windows.
 */
export interface QueuedFile {
  readonly path: string;
  readonly absolute: string;
  readonly size: number;
}

export function scanQueue<F extends QueuedFile>(
  files: readonly F[],
  claim: Int32Array,
  options: ScanTargetsOptions,
  read: (file: F) => () => Promise<Buffer | string | null>,
): ScanOutcome {
  const reader = new ReusableFileReader();
  const outcome = emptyScanOutcome();
  for (;;) {
    const index = Atomics.add(claim, 0, 1);
    if (index >= files.length) break;
    const file = files[index]!;
    const target = { path: file.path, absolute: file.absolute, read: read(file) };
    let content: Buffer;
    try {
      if (file.size > STREAM_BYTES && scanFileInWindows(target, options, outcome)) continue;
      // Read whole, a file past the cap would only be skipped after filling memory with it.
      if (file.size > HARD_MAX_BYTES) {
        outcome.skipped.push(tooLarge(file.path, file.size));
        continue;
      }
      content = reader.read(file.absolute, file.size);
    } catch (error) {
      outcome.skipped.push(notRead(file, error));
      continue;
    }
    scanContent(target, content, options, outcome);
  }
  return outcome;
}

/** Why a file could not be read: a text too long for one string is more than can be held, not unreadable. */
function notRead(file: QueuedFile, error: unknown): SkippedTarget {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ERR_STRING_TOO_LONG') return tooLarge(file.path, file.size);
  return { path: file.path, reason: 'unreadable', detail: code ?? 'read failed' };
}
