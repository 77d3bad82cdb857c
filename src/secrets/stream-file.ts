import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync } from 'node:fs';
import { record, type ScanOutcome, type ScanTarget, type ScanTargetsOptions, textOptionsFor } from './scan-targets.js';
import type { RawSecret } from './scanner.js';
import { looksLikeLatin1, SNIFF_BYTES, utf16WithoutBom } from './text-decoding.js';

/**
 * A large text file scanned from disk in windows: read into one reused buffer a window at a time, cut after its last
 * line end (a 0x0A byte is never inside a UTF-8 or Latin-1 character), decoded and handed to the scanner's stream,
 * which gives exactly the findings of the whole text (see `SecretScanner.startStream`). Memory stays at a few
 * windows however large the file, so nothing caps its size. UTF-16 files, source maps and YAML need the whole text:
 * for those this returns false and the caller reads the file whole.
 */

/** Files larger than this are streamed. */
export const STREAM_BYTES = 16_000_000;
/** Bytes read per window. */
const WINDOW_BYTES = 4_000_000;
/**
 * The longest line held whole (the scanner keeps whole lines). Past it the text of one line could not even be held as
 * a string (V8 stops at about 512 MiB, after a peak of over 1 GiB): the file is listed as too large, which makes the
 * scan incomplete, rather than failing on the way.
 */
export const MAX_LINE_BYTES = 256_000_000;

/** Scans `target` from disk into `outcome`; false when it must be read whole instead. */
export function scanFileInWindows(
  target: ScanTarget & { readonly absolute: string },
  options: ScanTargetsOptions,
  outcome: ScanOutcome,
  maxLineBytes = MAX_LINE_BYTES,
): boolean {
  if (target.path.endsWith('.map')) return false;
  const textOptions = textOptionsFor(target);
  if (!options.scanner.startStream(textOptions)) return false;
  const fd = openSync(target.absolute, 'r');
  try {
    const first = Buffer.allocUnsafe(SNIFF_BYTES);
    const sniffed = first.subarray(0, readSync(fd, first, 0, SNIFF_BYTES, 0));
    const bom =
      sniffed.length >= 2 &&
      ((sniffed[0] === 0xff && sniffed[1] === 0xfe) || (sniffed[0] === 0xfe && sniffed[1] === 0xff));
    if (bom || utf16WithoutBom(sniffed)) return false;
    if (sniffed.includes(0)) {
      outcome.skipped.push({ path: target.path, reason: 'binary', detail: 'not text in UTF-8, UTF-16 or Latin-1' });
      return true;
    }
    // As `decodeText` decides for a whole file: UTF-8 when every byte of it is, else Latin-1 if its start looks so.
    let found = streamPass(fd, 'utf8', options, textOptions, maxLineBytes);
    if (found === 'not-utf8' && looksLikeLatin1(sniffed))
      found = streamPass(fd, 'latin1', options, textOptions, maxLineBytes);
    if (typeof found === 'object' && 'longLine' in found) {
      outcome.skipped.push({
        path: target.path,
        reason: 'too_large',
        detail: `a line of over ${(maxLineBytes / 1e6).toFixed(0)} MB (from byte ${found.longLine}) cannot be held to scan`,
      });
      return true;
    }
    if (found === 'not-utf8') {
      outcome.skipped.push({ path: target.path, reason: 'binary', detail: 'not text in UTF-8, UTF-16 or Latin-1' });
      return true;
    }
    outcome.scannedFiles++;
    outcome.scannedBytes += found.bytes;
    record(target, found.raw, options, outcome);
    return true;
  } finally {
    closeSync(fd);
  }
}

function streamPass(
  fd: number,
  encoding: 'utf8' | 'latin1',
  options: ScanTargetsOptions,
  textOptions: ReturnType<typeof textOptionsFor>,
  maxLineBytes: number,
): { raw: RawSecret[]; bytes: number } | { longLine: number } | 'not-utf8' {
  const stream = options.scanner.startStream(textOptions)!;
  let buffer = Buffer.allocUnsafe(WINDOW_BYTES);
  let held = 0;
  let position = 0;
  let first = true;
  const push = (bytes: Buffer): boolean => {
    if (encoding === 'utf8' && !isUtf8(bytes)) return false;
    const bom = first && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    first = false;
    stream.push(bytes.toString(encoding, bom));
    return true;
  };
  for (;;) {
    if (options.signal?.aborted) break;
    if (held === buffer.length) {
      if (held >= maxLineBytes) return { longLine: position - held };
      // One line longer than the buffer: grow it until the line fits (the scanner holds whole lines).
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, Math.max(maxLineBytes, buffer.length + 1)));
      buffer.copy(larger, 0, 0, held);
      buffer = larger;
    }
    const read = readSync(fd, buffer, held, buffer.length - held, position);
    position += read;
    if (read === 0) {
      if (held > 0 && !push(buffer.subarray(0, held))) return 'not-utf8';
      break;
    }
    held += read;
    const cut = buffer.lastIndexOf(0x0a, held - 1) + 1;
    if (cut === 0) continue;
    if (!push(buffer.subarray(0, cut))) return 'not-utf8';
    buffer.copy(buffer, 0, cut, held);
    held -= cut;
  }
  return { raw: stream.end(), bytes: position };
}
