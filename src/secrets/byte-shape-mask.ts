import { ALNUM, MAX_NAME_RUN } from './name-gate.js';
import type { OutputShapes } from './shape-masks.js';

/**
 * `shapeMask` read from a byte scan's bytes (`byte-scan.ts`: one byte per character, a non-ASCII unit as a byte of
 * 0x80 or more) with no tile cut: the same parse (`nameRunEnd`, `separatorAt`, `valueAt`) and the same table reads.
 * At `key`, a name word of the newer rules, a third of the hits leave no rule's bit set: those need no tile at all.
 *
 * Why the bytes give the tile's answer: the parse stops at a line feed (no name character, quote or blank) and a tile
 * holds the hit's whole line with its line feed, so every position read is inside the tile, at the same character
 * (ASCII, or outside ASCII in both, which every table reads as `NONE`).
 */

/** The column of the tables for no character (past the end) or one outside ASCII (`shape-masks.ts`). */
const NONE = 128;

/** Per byte, 1 for a name character (`[A-Za-z0-9_.-]`). */
const NAME_BYTE = new Uint8Array(256);
for (const char of `${ALNUM}_.-`) NAME_BYTE[char.charCodeAt(0)] = 1;

function column(bytes: Uint8Array, at: number): number {
  if (at >= bytes.length) return NONE;
  const code = bytes[at]!;
  return code < NONE ? code : NONE;
}

/** The bits of `shapeMask(shapes, text, after, …)` for the hit ending at `after`, read from `bytes`. */
export function shapeMaskOfBytes(shapes: OutputShapes, bytes: Uint8Array, after: number): number {
  const length = bytes.length;
  const limit = Math.min(length, after + MAX_NAME_RUN + 1);
  let runEnd = after;
  while (runEnd < limit && NAME_BYTE[bytes[runEnd]!] === 1) runEnd++;
  let separator = runEnd;
  if (separator < length && bytes[separator] === 92) separator++; // `\"` in JSON inside JSON
  if (separator < length && (bytes[separator] === 34 || bytes[separator] === 39)) separator++;
  while (separator < length && (bytes[separator] === 32 || bytes[separator] === 9)) separator++;
  const mask =
    shapes.run[runEnd - after]! & shapes.atEnd[column(bytes, runEnd)]! & shapes.atSeparator[column(bytes, separator)]!;
  if (shapes.value === null || mask === 0) return mask;
  let value = separator;
  while (value < length && (bytes[value] === 58 || bytes[value] === 61 || bytes[value] === 62)) value++;
  while (value < length && (bytes[value] === 32 || bytes[value] === 9)) value++;
  return mask & shapes.value[column(bytes, value)]!;
}

/**
 * `mask` without the rules whose gate check, read from the bytes (`ByteHitCheck`), turns down the hit ending at
 * `after`: their `opensAt` would be false there. At `key` the two prose rules' bits were set at 22,000 hits a pass of
 * the npm corpus's 64 MB, each then a tile and two calls turned down by these checks.
 */
export function withoutByteRefuted(shapes: OutputShapes, mask: number, bytes: Uint8Array, after: number): number {
  if ((mask & shapes.byteChecked) === 0) return mask;
  const { byteChecks } = shapes;
  let kept = mask;
  for (let index = 0; index < byteChecks.length; index++) {
    const check = byteChecks[index];
    if (check !== undefined && (kept & (1 << index)) !== 0 && !check(bytes, after)) kept &= ~(1 << index);
  }
  return kept;
}
