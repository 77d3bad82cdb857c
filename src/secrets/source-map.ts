import { z } from 'zod';

/**
 * A source map is not code: its `names` and `mappings` are identifiers and base64-VLQ that look like tokens to any
 * entropy rule. The code it carries is in `sourcesContent`, scanned as the files it came from, so a finding points
 * inside the original source (`bundle.js.map!src/api.ts:12`).
 */
export interface SourceMapPart {
  /** `<map path>!<source name>`. */
  path: string;
  text: string;
}

const sourceMapSchema = z.object({
  version: z.literal(3),
  mappings: z.string(),
  sources: z.array(z.string().nullable()).default([]),
  sourcesContent: z.array(z.string().nullable()).optional(),
});

/** The embedded sources of a source map, or null when the file is not one (then it is scanned as it is). */
/** Only a `.map` file is read as a source map (its embedded sources scanned each on its own). */
export function mayBeSourceMap(path: string): boolean {
  return path.endsWith('.map');
}

export function sourceMapParts(path: string, text: string): SourceMapPart[] | null {
  if (!mayBeSourceMap(path) || !text.trimStart().startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutMappings(text));
  } catch {
    return null;
  }
  return sourceMapPartsOf(path, parsed);
}

/** The embedded sources of a parsed source map, or null when the value is not one. */
export function sourceMapPartsOf(path: string, parsed: unknown): SourceMapPart[] | null {
  const map = sourceMapSchema.safeParse(parsed);
  if (!map.success) return null;
  const { sources, sourcesContent = [] } = map.data;
  return sourcesContent.flatMap((content, index) =>
    typeof content === 'string' && content.length > 0
      ? [{ path: `${path}!${sources[index] ?? `source-${index}`}`, text: content }]
      : [],
  );
}

/** A key that ends in `mappings`, then its value when that is a string without escapes or control characters. */
const MAPPINGS_KEY = /"mappings"[ \t\n\r]*:[ \t\n\r]*/y;
const PLAIN_STRING = /"[^"\\\x00-\x1f]*"/y;

/**
 * `text` with the value of its first `"mappings": "…"` emptied: `JSON.parse` spends more on that one long string of
 * base64 than on all the embedded sources, and only its being a string matters here. Wherever such a key is (the map's
 * own, one in a nested object, one whose name only ends in `"mappings`), its value is a whole JSON string token, so the
 * emptied text parses exactly when the text does, to the same value but for that one string, which stays a string.
 */
function withoutMappings(text: string): string {
  for (let at = text.indexOf('"mappings"'); at !== -1; at = text.indexOf('"mappings"', at + 1)) {
    MAPPINGS_KEY.lastIndex = at;
    if (!MAPPINGS_KEY.test(text)) continue;
    const start = MAPPINGS_KEY.lastIndex;
    PLAIN_STRING.lastIndex = start;
    if (!PLAIN_STRING.test(text)) return text;
    return `${text.slice(0, start)}""${text.slice(PLAIN_STRING.lastIndex)}`;
  }
  return text;
}
