import { Utf8ByteView } from './byte-view.js';
import { keyStoreText } from './key-stores.js';
import type { ScanTarget, ScanTargetsOptions } from './scan-target-types.js';
import { mayBeSourceMap } from './source-map.js';
import { decodeForScan } from './text-decoding.js';

/**
 * Texts up to this many characters (or bytes) are looked at first (`quietContent`). A longer text seldom has no hit,
 * and one with a hit has its keyword pass run twice; a short one's set-up costs more than its characters (rails
 * v7.2.0..v8.0.0: 2,682 of 2,966 pieces, 2,134 of them without a hit, and 180 KB in those with one).
 */
const SMALL_TEXT = 1024;

/**
 * Per target, 1 where its content at hand is a short text (a history's added lines, or a commit message's bytes read
 * as text) that `scanContent` would scan whole with `scanText` and find nothing in (`SecretScanner.quietTexts`, the
 * keyword pass alone: three in four of a history's pieces have no hit, and each `scanText` costs its set-up first);
 * null when no target is such a text. A source map's text is left to `scanContent` (its embedded sources are scanned).
 */
export function quietContent(targets: readonly ScanTarget[], options: ScanTargetsOptions): Uint8Array | null {
  const texts: string[] = [];
  const paths: string[] = [];
  const at: number[] = [];
  for (let index = 0; index < targets.length; index++) {
    const { content, path, scanAsText } = targets[index]!;
    if (content === undefined || content.length > SMALL_TEXT || mayBeSourceMap(path)) continue;
    const text = typeof content === 'string' ? content : scanAsText ? textOfBytes(content) : null;
    if (text === null) continue;
    texts.push(text);
    paths.push(path);
    at.push(index);
  }
  if (texts.length === 0) return null;
  const quiet = options.scanner.quietTexts(texts, paths);
  const byTarget = new Uint8Array(targets.length);
  for (let k = 0; k < at.length; k++) byTarget[at[k]!] = quiet[k]!;
  return byTarget;
}

/**
 * The text `scanContent` scans whole for bytes of a target read as text (`ScanTarget.scanAsText`: a history's commit
 * message), or null where it does more than that (a key store's base64, the printable runs of what is no text).
 */
function textOfBytes(bytes: Buffer): string | null {
  if (keyStoreText(bytes) !== null) return null;
  const decoded = decodeForScan(bytes);
  if (decoded === null) return null;
  return decoded instanceof Utf8ByteView ? decoded.utf8() : decoded.text;
}
