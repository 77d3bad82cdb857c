import type { Utf8ByteView } from './byte-view.js';

/**
 * A source map is not code: its `names` and `mappings` are identifiers and base64-VLQ that look like tokens to any
 * entropy rule. The code it carries is in `sourcesContent`, scanned as the files it came from, so a finding points
 * inside the original source (`bundle.js.map!src/api.ts:12`).
 */
export interface SourceMapPart {
  /** `<map path>!<source name>`. */
  path: string;
  text: string;
  /**
   * `text` is the source's UTF-8 bytes one character each, not yet decoded (`sourceMapPartsOfView` with `keepBytes`):
   * scanned from those bytes, never decoded whole.
   */
  utf8Bytes?: true;
}

/**
 * A version 3 source map's fields that are read (zod's `object({ version: literal(3), mappings: string(), sources:
 * array(string().nullable()).default([]), sourcesContent: array(string().nullable()).optional() })`, checked by hand:
 * the scan worker loads no zod, whose module cost each worker about 60 ms of CPU to load, docs/benchmarks.md).
 */
interface SourceMapFields {
  sources: ReadonlyArray<string | null>;
  sourcesContent: ReadonlyArray<string | null>;
}

function sourceMapFields(value: unknown): SourceMapFields | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { version, mappings, sources = [], sourcesContent = [] } = value as Record<string, unknown>;
  if (version !== 3 || typeof mappings !== 'string') return null;
  if (!isNullableStrings(sources) || !isNullableStrings(sourcesContent)) return null;
  return { sources, sourcesContent };
}

function isNullableStrings(value: unknown): value is Array<string | null> {
  return Array.isArray(value) && value.every((item) => item === null || typeof item === 'string');
}

/** Only a `.map` file is read as a source map (its embedded sources scanned each on its own). */
export function mayBeSourceMap(path: string): boolean {
  return path.endsWith('.map');
}

/** The embedded sources of a source map, or null when the file is not one (then it is scanned as it is). */
export function sourceMapParts(path: string, text: string): SourceMapPart[] | null {
  if (!mayBeSourceMap(path) || !text.trimStart().startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return sourceMapPartsOf(path, parsed);
}

/** The embedded sources of a parsed source map, or null when the value is not one. */
export function sourceMapPartsOf(path: string, parsed: unknown): SourceMapPart[] | null {
  const map = sourceMapFields(parsed);
  if (!map) return null;
  const { sources, sourcesContent } = map;
  return sourcesContent.flatMap((content, index) =>
    typeof content === 'string' && content.length > 0
      ? [{ path: `${path}!${sources[index] ?? `source-${index}`}`, text: content }]
      : [],
  );
}

/**
 * A `\u0080`-`\u00ff` escape as the file's bytes spell it (its hex digits kept: either case, but only a lower-case
 * `u`: JSON has no `\U` escape, and a `\U00e9` rewritten to `\u01e9` would make a map that the decoded text's parse
 * refuses parse here), or a `\u0180`-`\u01ff` one, where the first is moved to.
 */
const HIGH_ESCAPE = /\\u0(?:0([89a-fA-F][0-9a-fA-F])|1[89a-fA-F])/g;
const BACKSLASH = 0x5c;
const SHIFT = 0x100;
const SHIFTED = /[\u0180-\u01ff]/g;
/** Characters a one-byte reading can only have from a `\uXXXX` escape. */
const WIDE_RUN = /[^\x00-\xff]+/g;
/** The same, tested: no search at all in a one-byte string, which V8 knows cannot match. */
const WIDE = /[^\x00-\xff]/;

/**
 * `sourceMapParts(path, view.utf8())` of a UTF-8 map (ASCII or not), parsed from the one-byte reading of its
 * bytes (`view.text`): decoding a map to a two-byte string cost more than parsing it. JSON's syntax is ASCII, so both
 * readings parse alike (a non-ASCII byte outside a string fails either way, and no byte of the one-byte reading is a
 * control character JSON refuses in a string), and each string holds the same bytes; only the strings that are kept
 * (source names and contents) are decoded. A `\u0080`-`\u00ff` escape, whose character could not be told from a byte,
 * is parsed as `\u0180`-`\u01ff` and moved back; undefined (parse the decoded text instead) when the bytes already hold
 * such an escape. With `keepBytes`, a source made of the file's bytes and ASCII escapes alone stays as those bytes
 * (`utf8Bytes`), so that it is scanned from them with no decoding and no string of its decoded text.
 */
export function sourceMapPartsOfView(
  path: string,
  view: Utf8ByteView,
  keepBytes = false,
): SourceMapPart[] | null | undefined {
  if (!mayBeSourceMap(path)) return null;
  const text = shiftedEscapes(view.text);
  if (text === undefined) return undefined;
  if (!text.trimStart().startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const map = parsed as { sources?: unknown; sourcesContent?: unknown };
    if (Array.isArray(map.sources)) map.sources = map.sources.map(decodedString);
  }
  // The contents are decoded once the schema has passed them (it keeps each string as it is, and a decoded string is
  // empty only when its bytes are), so that those kept as bytes are never decoded.
  const parts = sourceMapPartsOf(path, parsed);
  for (const part of parts ?? []) {
    if (keepBytes && !WIDE.test(part.text)) part.utf8Bytes = true;
    else part.text = decodedString(part.text) as string;
  }
  return parts;
}

/**
 * `text` with each `\u0080`-`\u00ff` escape moved to `\u0180`-`\u01ff`, or undefined when it holds such an escape
 * already. A backslash starts an escape only after an even run of backslashes (`\\u00e9` is a backslash and text). One
 * search for the escapes, which are rare, rather than a replacement called at every escaped backslash, which a map of
 * code holds by the thousand: 18-27 ms against 58-75 ms over the npm corpus's 1,035 maps.
 */
function shiftedEscapes(text: string): string | undefined {
  HIGH_ESCAPE.lastIndex = 0;
  let out = '';
  let from = 0;
  for (let found = HIGH_ESCAPE.exec(text); found !== null; found = HIGH_ESCAPE.exec(text)) {
    let before = found.index;
    while (before > 0 && text.charCodeAt(before - 1) === BACKSLASH) before--;
    if ((found.index - before) % 2 === 1) continue;
    if (found[1] === undefined) return undefined;
    out += `${text.slice(from, found.index)}\\u01${found[1]}`;
    from = found.index + found[0].length;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * A string of the one-byte reading as the decoded text's parse has it: its runs of characters up to U+00FF are the
 * file's bytes (or ASCII from escapes) and are decoded as UTF-8; a character above came from an escape and stays,
 * moved back if `sourceMapPartsOfView` shifted it. A run never splits a byte sequence, since escapes are ASCII text
 * between sequences.
 */
function decodedString(value: unknown): unknown {
  // All ASCII exactly when each character takes one byte of UTF-8: a native count, about 8x faster than a regex search
  // over the maps' 32 M characters of sources.
  if (typeof value !== 'string' || Buffer.byteLength(value, 'utf8') === value.length) return value;
  let out = '';
  let from = 0;
  WIDE_RUN.lastIndex = 0;
  for (let run = WIDE_RUN.exec(value); run !== null; run = WIDE_RUN.exec(value)) {
    out += Buffer.from(value.slice(from, run.index), 'latin1').toString('utf8') + run[0].replace(SHIFTED, shiftedBack);
    from = run.index + run[0].length;
  }
  return out + Buffer.from(value.slice(from), 'latin1').toString('utf8');
}

function shiftedBack(char: string): string {
  return String.fromCharCode(char.charCodeAt(0) - SHIFT);
}
