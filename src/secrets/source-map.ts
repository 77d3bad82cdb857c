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
  const map = sourceMapSchema.safeParse(parsed);
  if (!map.success) return null;
  const { sources, sourcesContent = [] } = map.data;
  return sourcesContent.flatMap((content, index) =>
    typeof content === 'string' && content.length > 0
      ? [{ path: `${path}!${sources[index] ?? `source-${index}`}`, text: content }]
      : [],
  );
}
