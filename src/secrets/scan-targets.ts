import { isAscii } from 'node:buffer';
import picomatch from 'picomatch';
import type { LineRange } from '../core/change-set/types.js';
import { byPathLineColumn } from '../core/text-order.js';
import { Utf8ByteView } from './byte-view.js';
import { isFormatlessRule } from './fixtures.js';
import { importedSuppressionFor } from './imported-match.js';
import { keyStoreText } from './key-stores.js';
import { isCompiledCode, printableRuns } from './printable-runs.js';
import { quietContent } from './quiet-content.js';
import { emptyScanOutcome, mergeScanOutcome } from './scan-outcome.js';
import type { ScanOutcome, ScanTarget, ScanTargetsOptions, SkippedTarget } from './scan-target-types.js';
import type { RawSecret, ScanTextOptions } from './scanner.js';
import { viewOfUtf8Bytes } from './source-bytes.js';
import { mayBeSourceMap, type SourceMapPart, sourceMapParts, sourceMapPartsOfView } from './source-map.js';
import { sourceMapPartsOfBytes } from './source-map-bytes.js';
import { judgeSuppression } from './suppressions.js';
import { decodeForScan } from './text-decoding.js';
import { toSecretFinding } from './to-finding.js';

/**
 * The scanning loop every surface shares (the validator, `tollgate scan`, the pre-commit hook): read each target
 * once, skip what is not text, scan, keep only masked findings. Sources differ only in how they build targets.
 */

export { emptyScanOutcome, mergeScanOutcome, sortOutcome } from './scan-outcome.js';
export type {
  RejectedCandidate,
  ScanOutcome,
  ScanTarget,
  ScanTargetsOptions,
  SkippedTarget,
} from './scan-target-types.js';

/**
 * A file read whole (one not streamed from disk: see `stream-file.ts`) larger than this is not scanned: listed as
 * skipped, which makes a gate run incomplete. Streamed files have no cap.
 */
export const HARD_MAX_BYTES = 256_000_000;

/** The detail of a symbolic link to nothing: there is no content to scan, so its skip is no gap in a scan. */
export const BROKEN_LINK = 'broken symbolic link';

/**
 * Skipped files whose content was there but not examined (too large to hold, unreadable): they make a scan
 * incomplete, never a pass. Binary, allowlisted and out-of-repository files are skipped by design.
 */
export function unexaminedFiles(skipped: readonly SkippedTarget[]): SkippedTarget[] {
  return skipped.filter(
    (file) => file.reason === 'too_large' || (file.reason === 'unreadable' && file.detail !== BROKEN_LINK),
  );
}

export function lineSet(ranges: readonly LineRange[]): (line: number) => boolean {
  return (line) => ranges.some((range) => line >= range.start && line <= range.end);
}

/** Targets that arrive in batches (a streamed history): each is scanned as it comes, nothing is held after. */
export async function scanBatches(
  batches: AsyncIterable<readonly ScanTarget[]>,
  options: ScanTargetsOptions,
): Promise<ScanOutcome> {
  const outcome = emptyScanOutcome();
  for await (const batch of batches) {
    if (options.signal?.aborted) break;
    mergeScanOutcome(outcome, await scanTargets(batch, options));
  }
  outcome.findings.sort(byPathLineColumn);
  return outcome;
}

/**
 * Reads started ahead of the scan: each read waits on the file system (a thread-pool round trip per call, several per
 * file) while this thread scans the file before it, so a change of 2,000 small files is not 8,000 round trips one
 * after the other. A target that checks its bytes against a snapshot blob (a large file) is only read when reached.
 */
const READ_AHEAD = 16;

type SettledRead = { content: Buffer | string | null } | { error: unknown };

function settledRead(target: ScanTarget): Promise<SettledRead> {
  try {
    return target.read().then(
      (content) => ({ content }),
      (error: unknown) => ({ error }),
    );
  } catch (error) {
    return Promise.resolve({ error });
  }
}

export async function scanTargets(targets: readonly ScanTarget[], options: ScanTargetsOptions): Promise<ScanOutcome> {
  const allowed = allowedPaths(options);
  const outcome = emptyScanOutcome();
  const reads = new Map<number, Promise<SettledRead>>();
  let ahead = 0; // the next index whose read may start early
  const readAhead = (from: number) => {
    ahead = Math.max(ahead, from);
    while (ahead < targets.length && ahead < from + READ_AHEAD) {
      const target = targets[ahead]!;
      if (!target.expectedBlob && !target.skip && target.content === undefined && !allowed?.(target.path))
        reads.set(ahead, settledRead(target));
      ahead++;
    }
  };
  const quiet = quietContent(targets, options);
  // An index, not `targets.entries()`: run cold, that loop made an iterator result and an `[index, target]` pair a
  // target (a history's thousands of texts).
  for (let index = 0; index < targets.length; index++) {
    const target = targets[index]!;
    if (options.signal?.aborted) break;
    if ((index + 1) % 200 === 0) options.onProgress?.(index + 1, targets.length);
    const skip = skipBeforeReading(target, allowed);
    if (skip) {
      outcome.skipped.push(skip);
      continue;
    }
    // Reads of files read earlier settle at once, so without these turns nothing else (a check's exit, git's output)
    // would be seen until the whole scan is done.
    const turn = takeTurn();
    if (turn) await turn;
    if (target.content !== undefined) {
      if (quiet !== null && quiet[index] === 1) {
        // What `scanContent` counts for a text it scans and finds nothing in.
        outcome.scannedFiles++;
        outcome.scannedBytes += sizeOf(target.content);
        continue;
      }
      scanContent(target, target.content, options, outcome);
      continue;
    }
    readAhead(index + 1);
    const read = await (reads.get(index) ?? settledRead(target));
    reads.delete(index);
    if ('error' in read) {
      outcome.skipped.push({
        path: target.path,
        reason: 'unreadable',
        detail: (read.error as NodeJS.ErrnoException | undefined)?.code ?? 'read failed',
      });
      continue;
    }
    scanContent(target, read.content, options, outcome);
  }
  outcome.findings.sort(byPathLineColumn);
  return outcome;
}

let lastTurn = 0;

/**
 * Every few milliseconds of scanning content at hand, a turn of the event loop: the readers feeding it (git's output,
 * parsed as it arrives) then keep up, and git keeps writing while this thread scans instead of waiting on a full pipe.
 */
function takeTurn(): Promise<void> | undefined {
  // `Date.now`, whole milliseconds: `performance.now` cost 3-7 ms of CPU over a history's 4,789 targets, this 0.5 ms.
  // A clock set back takes a turn at once rather than none until it catches up.
  const now = Date.now();
  if (now - lastTurn < 2 && now >= lastTurn) return undefined;
  lastTurn = now;
  return new Promise((resolve) => setImmediate(resolve));
}

/** `secrets.paths` as a matcher, or null when it lists nothing. */
export function allowedPaths(options: ScanTargetsOptions): ((path: string) => boolean) | null {
  return options.allowPaths && options.allowPaths.length > 0 ? picomatch([...options.allowPaths], { dot: true }) : null;
}

/**
 * Why a target is not read at all (allowlisted, known-unreadable), or null. A binary file type is read like any other:
 * a name is no reason to trust the bytes.
 */
export function skipBeforeReading(
  target: ScanTarget,
  allowed: ((path: string) => boolean) | null,
): SkippedTarget | null {
  if (allowed?.(target.path)) return { path: target.path, reason: 'allowlisted', detail: 'matches secrets.paths' };
  if (target.skip) return { path: target.path, ...target.skip };
  return null;
}

/** What a scan counts of a content: a text's characters, or bytes. */
function sizeOf(content: Buffer | string): number {
  return typeof content === 'string' ? content.length : content.byteLength;
}

/**
 * One target's content, read: skipped when it is not text or too large, else scanned (whole, per embedded source of a
 * source map, or in windows). What every reader (async targets, the disk queue of `parallel-scan.ts`) ends in.
 */
export function scanContent(
  target: ScanTarget,
  content: Buffer | string | null,
  options: ScanTargetsOptions,
  outcome: ScanOutcome,
): void {
  if (content === null) {
    outcome.skipped.push({ path: target.path, reason: 'unreadable', detail: 'no content' });
    return;
  }
  const size = sizeOf(content);
  if (size > HARD_MAX_BYTES) {
    outcome.skipped.push(tooLarge(target.path, size));
    return;
  }
  if (typeof content !== 'string') scanKeyStore(target, content, options, outcome);
  const decoded = typeof content === 'string' ? { text: content } : decodeForScan(content);
  if (decoded === null) {
    scanPrintableRuns(target, content as Buffer, options, outcome);
    return;
  }
  outcome.scannedFiles++;
  outcome.scannedBytes += size;
  // A UTF-8 map's sources are read from its bytes where that is sure to agree with its parse (`source-map-bytes.ts`).
  if (decoded instanceof Utf8ByteView && mayBeSourceMap(target.path)) {
    const parts = sourceMapPartsOfBytes(target.path, decoded.bytes);
    if (parts !== undefined) {
      for (const part of parts)
        collect(
          { path: part.path, read: target.read },
          new Utf8ByteView(part.bytes, isAscii(part.bytes)),
          options,
          outcome,
        );
      return;
    }
  }
  // A map read a byte per character is parsed from those bytes, never decoded whole unless that is not sure to agree.
  const viewParts = decoded instanceof Utf8ByteView ? sourceMapPartsOfView(target.path, decoded, true) : undefined;
  if (decoded instanceof Utf8ByteView && viewParts === null) {
    collect(target, target.scanAsText ? decoded.utf8() : decoded, options, outcome);
    return;
  }
  if (viewParts) {
    collectParts(target, viewParts, options, outcome);
    return;
  }
  const text = decoded instanceof Utf8ByteView ? decoded.utf8() : decoded.text;
  const parts = sourceMapParts(target.path, text);
  if (parts) collectParts(target, parts, options, outcome);
  else collect(target, text, options, outcome);
}

/**
 * Lines of a source map say nothing about lines of its sources: each embedded source is scanned whole, from its bytes
 * when the map kept them.
 */
function collectParts(target: ScanTarget, parts: SourceMapPart[], options: ScanTargetsOptions, outcome: ScanOutcome) {
  for (const { path, text, utf8Bytes } of parts)
    collect({ path, read: target.read }, utf8Bytes ? viewOfUtf8Bytes(text) : text, options, outcome);
}

/** Content that is no text encoding: its printable runs are scanned, each reported on the file line it starts on. */
function scanPrintableRuns(target: ScanTarget, bytes: Buffer, options: ScanTargetsOptions, outcome: ScanOutcome) {
  const runs = printableRuns(bytes);
  outcome.scannedFiles++;
  outcome.scannedBytes += bytes.byteLength;
  outcome.binaryRuns.push(target.commit ? `${target.commit.slice(0, 12)}:${target.path}` : target.path);
  if (runs.runs === 0) return;
  const lineMap = target.lineMap ? runs.lineMap.map((line) => target.lineMap![line - 1] ?? line) : runs.lineMap;
  const runsTarget = { ...target, lineMap };
  const raw = options.scanner.scanText(runs.text, textOptionsFor(runsTarget, options));
  record(runsTarget, runFindings(bytes, raw), options, outcome);
}

/**
 * What the printable runs of binary content may report. In compiled code (`isCompiledCode`) only what a format proves
 * (provider tokens, private keys): its strings are glued end to end, so a name=value reading there is noise. Other
 * binary content keeps every rule: one NUL byte in a config file must not hide its password.
 */
export function runFindings(head: Uint8Array, raw: RawSecret[]): RawSecret[] {
  return isCompiledCode(head) ? raw.filter((item) => !isFormatlessRule(item.rule)) : raw;
}

/**
 * A PKCS#12 or Java key store (by its bytes, whatever its name) is matched as its base64, on its first line: the
 * key store rules decide whether it holds a key. Its printable runs are still scanned as any binary file's.
 */
function scanKeyStore(target: ScanTarget, bytes: Buffer, options: ScanTargetsOptions, outcome: ScanOutcome): void {
  const text = keyStoreText(bytes);
  if (text === null) return;
  // A store changed in a commit is reported on its first changed line (of bytes), which a history scan keeps.
  const lineMap = [target.onlyLines?.[0]?.start ?? target.lineMap?.[0] ?? 1];
  collect({ ...target, lineMap }, text, options, outcome);
}

/** What a file beyond `HARD_MAX_BYTES` is listed as; it makes a gate run incomplete. */
export function tooLarge(path: string, size: number): SkippedTarget {
  return {
    path,
    reason: 'too_large',
    detail: `${(size / 1e6).toFixed(1)} MB over the ${(HARD_MAX_BYTES / 1e6).toFixed(0)} MB that can be scanned`,
  };
}

/** A text scanned; a view from its bytes where the scanner can (`scanView` gives `scanText`'s results). */
function collect(target: ScanTarget, text: string | Utf8ByteView, options: ScanTargetsOptions, outcome: ScanOutcome) {
  const { scanner } = options;
  const textOptions = textOptionsFor(target, options);
  const raw =
    typeof text === 'string'
      ? scanner.scanText(text, textOptions)
      : (scanner.scanView(text, textOptions) ?? scanner.scanText(text.utf8(), textOptions));
  record(target, raw, options, outcome);
}

/** How the scanner is asked about one target: its path, and only the lines it reports. */
export function textOptionsFor(
  target: ScanTarget,
  options: Pick<ScanTargetsOptions, 'reportRejected'>,
): ScanTextOptions {
  // Made for every target, most of them a few lines with nothing found: no spread objects, no closure not needed.
  const onlyLines = target.onlyLines;
  if (onlyLines === undefined)
    return options.reportRejected
      ? { path: target.path, keepAllowed: true, keepRejected: true }
      : { path: target.path, keepAllowed: true };
  const only = lineSet(onlyLines);
  const lineMap = target.lineMap;
  const acceptLine = lineMap ? (line: number) => only(lineMap[line - 1] ?? line) : only;
  return options.reportRejected
    ? { path: target.path, keepAllowed: true, keepRejected: true, acceptLine }
    : { path: target.path, keepAllowed: true, acceptLine };
}

/** The scanner's raw secrets of one target, judged against every suppression and kept only masked. */
export function record(
  target: ScanTarget,
  raw: readonly RawSecret[],
  options: ScanTargetsOptions,
  outcome: ScanOutcome,
): void {
  if (raw.length === 0) return;
  const realLine = (line: number) => target.lineMap?.[line - 1] ?? line;
  const isNew = target.newLines ? lineSet(target.newLines) : () => true;
  for (const item of raw) {
    const line = realLine(item.line);
    if (item.rejected !== undefined) {
      const { ruleId, masked } = toSecretFinding({ ...item, line }, target.path, false);
      outcome.rejected ??= [];
      outcome.rejected.push({ path: target.path, line, column: item.column, ruleId, masked, reason: item.rejected });
      continue;
    }
    let finding = toSecretFinding({ ...item, line }, target.path, isNew(line));
    const imported = options.imported
      ? importedSuppressionFor(options.imported, {
          path: target.path,
          line,
          commit: target.commit,
          secret: item.secret,
        })
      : undefined;
    // An inline allow the gate rejects may still be covered by a baseline entry that it accepts.
    const kinds = [
      ...(item.allowedBy ? (['inline'] as const) : []),
      ...(options.baseline?.has(finding.fingerprint) ? (['baseline'] as const) : []),
      ...(imported ? (['imported'] as const) : []),
    ];
    const markerLine = item.allowedAt === undefined ? undefined : realLine(item.allowedAt);
    const judge = (kind: (typeof kinds)[number]) => judgeSuppression(kind, finding, options.gate, markerLine);
    const applied = kinds.find((kind) => judge(kind) === 'applies');
    if (applied) {
      if (applied === 'baseline') outcome.baselined++;
      const { path, ruleId, severity, masked, fingerprint } = finding;
      const source =
        applied === 'inline'
          ? item.allowedBy!
          : applied === 'baseline'
            ? (options.baselineLabel ?? 'baseline')
            : imported!.source;
      const reason = applied === 'inline' ? item.allowReason : applied === 'imported' ? imported!.reason : undefined;
      outcome.suppressed.push({
        kind: applied,
        path,
        line,
        ruleId,
        severity,
        masked,
        fingerprint,
        source,
        ...(reason ? { reason } : {}),
      });
      continue;
    }
    const rejected = kinds[0] && judge(kinds[0]);
    if (rejected && rejected !== 'applies') finding = { ...finding, suppression: rejected };
    outcome.findings.push(target.commit ? { ...finding, commit: target.commit } : finding);
  }
}
