/** Readers for the JSON the CLIs print in their structured modes. Never throw: a CLI's output is untrusted text. */

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The whole text as one JSON object, or null. */
export function parseJsonObject(text: string): JsonObject | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Every line that is a JSON object (JSONL event streams); other lines are skipped. */
export function parseJsonLines(text: string): JsonObject[] {
  const events: JsonObject[] = [];
  for (const line of text.split('\n')) {
    const event = parseJsonObject(line);
    if (event) events.push(event);
  }
  return events;
}

/**
 * A JSON object in `text` that may have other lines before it: the whole text, else a pretty-printed object that
 * starts at the beginning of a line and runs to the end (Gemini's errors on stderr), else the last JSONL line.
 */
export function findJsonObject(text: string): JsonObject | null {
  const whole = parseJsonObject(text);
  if (whole) return whole;
  const end = text.lastIndexOf('}');
  for (let start = text.indexOf('\n{'); start !== -1 && start < end; start = text.indexOf('\n{', start + 1)) {
    const object = parseJsonObject(text.slice(start, end + 1));
    if (object) return object;
  }
  return parseJsonLines(text).at(-1) ?? null;
}

export function stringField(object: JsonObject | null | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
}

export function objectField(object: JsonObject | null | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isJsonObject(value) ? value : undefined;
}

/** A finite number, or undefined (for usage fields a CLI may leave out or garble). */
export function numberField(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The usage without the fields that are undefined. */
export function compactUsage<T extends object>(usage: T): T {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined)) as T;
}
