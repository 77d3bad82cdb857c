/**
 * Pure: the JSON object in an agent's answer. Agents wrap JSON in prose or fences; the last fenced block wins, then
 * the whole text, then the last balanced `{…}`.
 */
export function extractJsonObject(text: string): unknown {
  const fences = [...text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)];
  const candidates = [...fences.map((match) => match[1]!).reverse(), text];
  for (const candidate of candidates) {
    try {
      return JSON.parse(candidate.trim());
    } catch {
      // try the next
    }
  }
  const end = text.lastIndexOf('}');
  for (let start = text.lastIndexOf('{', end); start !== -1; start = text.lastIndexOf('{', start - 1)) {
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      // widen
    }
  }
  return undefined;
}
