import { isUtf8 } from 'node:buffer';
import type { Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crypto } from '../core/crypto-lazy.js';
import { printableRuns, runSafeCut } from './printable-runs.js';
import {
  record,
  runFindings,
  type ScanOutcome,
  type ScanTarget,
  type ScanTargetsOptions,
  textOptionsFor,
} from './scan-targets.js';
import type { RawSecret, TextStream } from './scanner.js';
import { looksLikeLatin1, SNIFF_BYTES, utf16WithoutBom, utf32Of } from './text-decoding.js';

/**
 * A large file scanned from disk in windows: read into one reused buffer a window at a time, cut after its last line
 * end (a 0x0A byte is never inside a UTF-8 or Latin-1 character), decoded and handed to the scanner's stream, which
 * gives exactly the findings of the whole text (see `SecretScanner.startStream`). A file that is no text encoding is
 * streamed the same way as its printable runs (cut where no run can span). Memory stays at a few windows however
 * large the file, so nothing caps its size. UTF-16/32 files, source maps and YAML need the whole text: for those this
 * returns false and the caller reads the file whole, as it does when the bytes are not the expected blob.
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

/** A line (or printable run) longer than the limit, from this byte on. */
interface LongLine {
  longLine: number;
}

interface Pass {
  raw: RawSecret[];
  bytes: number;
  /** The blob id of the bytes read, when a blob was expected. */
  blobId: string | null;
}

/** Scans `target` from disk into `outcome`; false when it must be read whole instead. */
export function scanFileInWindows(
  target: ScanTarget & { readonly absolute: string },
  options: ScanTargetsOptions,
  outcome: ScanOutcome,
  maxLineBytes = MAX_LINE_BYTES,
): boolean {
  if (target.path.endsWith('.map')) return false;
  const textOptions = textOptionsFor(target, options);
  if (!options.scanner.canStream(target.path)) return false;
  const fd = openSync(target.absolute, 'r');
  try {
    const size = fstatSync(fd).size;
    const first = Buffer.allocUnsafe(SNIFF_BYTES);
    const sniffed = first.subarray(0, readSync(fd, first, 0, SNIFF_BYTES, 0));
    const bom =
      sniffed.length >= 2 &&
      ((sniffed[0] === 0xff && sniffed[1] === 0xfe) || (sniffed[0] === 0xfe && sniffed[1] === 0xff));
    if (bom || utf16WithoutBom(sniffed) || utf32Of(sniffed)) return false;
    const hash = () => (target.expectedBlob ? blobHash(target.expectedBlob.objectFormat, size) : null);
    let found: Pass | LongLine | 'not-utf8' = 'not-utf8';
    if (!sniffed.includes(0)) {
      // As `decodeText` decides for a whole file: UTF-8 when every byte of it is, else Latin-1 if its start looks so.
      found = textPass(fd, 'utf8', options, textOptions, hash(), maxLineBytes);
      if (found === 'not-utf8' && looksLikeLatin1(sniffed))
        found = textPass(fd, 'latin1', options, textOptions, hash(), maxLineBytes);
    }
    const lineMap: number[] = [];
    const binary = found === 'not-utf8';
    if (found === 'not-utf8')
      found = binaryPass(fd, options.scanner.startStream(textOptions)!, hash(), lineMap, maxLineBytes);
    if ('longLine' in found) {
      outcome.skipped.push({
        path: target.path,
        reason: 'too_large',
        detail: `a line of over ${(maxLineBytes / 1e6).toFixed(0)} MB (from byte ${found.longLine}) cannot be held to scan`,
      });
      return true;
    }
    if (target.expectedBlob && (found.bytes !== size || found.blobId !== target.expectedBlob.id)) return false;
    outcome.scannedFiles++;
    outcome.scannedBytes += found.bytes;
    if (binary) outcome.binaryRuns.push(target.path);
    if (binary) record({ ...target, lineMap }, runFindings(sniffed, found.raw), options, outcome);
    else record(target, found.raw, options, outcome);
    return true;
  } finally {
    closeSync(fd);
  }
}

function blobHash(objectFormat: string, size: number): Hash {
  return crypto()
    .createHash(objectFormat === 'sha256' ? 'sha256' : 'sha1')
    .update(`blob ${size}\0`);
}

/**
 * Reads the file from its start in windows, each cut where `cutOf` says; `take` consumes the bytes before the cut and
 * returns false to stop (content that is not in the pass's encoding).
 */
function readWindows(
  fd: number,
  hash: Hash | null,
  cutOf: (window: Buffer) => number,
  take: (bytes: Buffer) => boolean,
  maxLineBytes: number,
): { bytes: number; ok: boolean } | LongLine {
  let buffer = Buffer.allocUnsafe(WINDOW_BYTES);
  let held = 0;
  let position = 0;
  for (;;) {
    if (held === buffer.length) {
      if (held >= maxLineBytes) return { longLine: position - held };
      // One line (or run) longer than the buffer: grow it until it fits, up to the limit.
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, Math.max(maxLineBytes, buffer.length + 1)));
      buffer.copy(larger, 0, 0, held);
      buffer = larger;
    }
    const read = readSync(fd, buffer, held, buffer.length - held, position);
    hash?.update(buffer.subarray(held, held + read));
    position += read;
    if (read === 0) {
      if (held > 0 && !take(buffer.subarray(0, held))) return { bytes: position, ok: false };
      return { bytes: position, ok: true };
    }
    held += read;
    const cut = cutOf(buffer.subarray(0, held));
    if (cut === 0) continue;
    if (!take(buffer.subarray(0, cut))) return { bytes: position, ok: false };
    buffer.copy(buffer, 0, cut, held);
    held -= cut;
  }
}

function textPass(
  fd: number,
  encoding: 'utf8' | 'latin1',
  options: ScanTargetsOptions,
  textOptions: ReturnType<typeof textOptionsFor>,
  hash: Hash | null,
  maxLineBytes: number,
): Pass | LongLine | 'not-utf8' {
  const stream = options.scanner.startStream(textOptions)!;
  let first = true;
  const read = readWindows(
    fd,
    hash,
    (window) => window.lastIndexOf(0x0a, window.length - 1) + 1,
    (bytes) => {
      if (options.signal?.aborted) return true;
      if (encoding === 'utf8' && !isUtf8(bytes)) return false;
      const bom = first && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      first = false;
      stream.push(bytes.toString(encoding, bom));
      return true;
    },
    maxLineBytes,
  );
  if ('longLine' in read) return read;
  if (!read.ok) return 'not-utf8';
  return { raw: stream.end(), bytes: read.bytes, blobId: hash?.digest('hex') ?? null };
}

/** The printable runs of a binary file, window by window; `lineMap` receives the file line of each text line. */
function binaryPass(
  fd: number,
  stream: TextStream,
  hash: Hash | null,
  lineMap: number[],
  maxLineBytes: number,
): Pass | LongLine {
  let line = 1;
  lineMap.length = 0;
  const read = readWindows(
    fd,
    hash,
    (window) => runSafeCut(window),
    (bytes) => {
      const runs = printableRuns(bytes, line);
      for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) line++;
      for (const mapped of runs.lineMap) lineMap.push(mapped);
      stream.push(runs.text);
      return true;
    },
    maxLineBytes,
  );
  if ('longLine' in read) return read;
  return { raw: stream.end(), bytes: read.bytes, blobId: hash?.digest('hex') ?? null };
}
