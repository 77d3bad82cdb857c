import type { z } from 'zod';
import { type ReviewAnswer, reviewAnswerSchema } from './answer.js';

export type ParsedAnswer = { ok: true; answer: ReviewAnswer } | { ok: false; problem: string };

/** Stray `{` in prose each cost one scan to the end; past this many, give up rather than go quadratic. */
const MAX_OBJECT_STARTS = 64;

/**
 * Reads a reviewer's answer: the JSON object may be the whole text, inside a code fence, or wrapped in prose, and may
 * carry invalid escapes (`"\d+"` in a regex quoted by the model) or raw newlines in strings. Of every candidate object
 * that validates, the last one wins (a model that first repeats the example and then answers means the answer). Never
 * throws.
 */
export function parseReviewAnswer(text: string, structured?: unknown): ParsedAnswer {
  if (structured !== undefined) {
    const parsed = reviewAnswerSchema.safeParse(structured);
    if (parsed.success) return { ok: true, answer: parsed.data };
  }
  let lastProblem: string | null = null;
  // First the top-level objects only; if none is the answer, every `{` (a stray `{"` in the prose can swallow the
  // real object into one bad span).
  for (const exhaustive of [false, true]) {
    const candidates = jsonCandidates(text, exhaustive);
    for (let index = candidates.length - 1; index >= 0; index--) {
      const json = parseLenientJson(candidates[index]!);
      if (!json.ok) {
        lastProblem ??= `not valid JSON (${json.error})`;
        continue;
      }
      const parsed = reviewAnswerSchema.safeParse(json.value);
      if (parsed.success) return { ok: true, answer: parsed.data };
      lastProblem = describeIssue(parsed.error);
    }
  }
  if (jsonCandidates(text, false).length === 0) {
    return { ok: false, problem: text.trim() === '' ? 'the answer was empty' : 'no JSON object in the answer' };
  }
  return { ok: false, problem: lastProblem ?? 'no JSON object in the answer' };
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'the JSON does not match the answer format';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
  return `the JSON does not match the answer format at ${where}: ${issue.message}`;
}

/** Fenced blocks and `{…}` spans (top-level ones, or from every `{` when `exhaustive`), in the order they appear. */
function jsonCandidates(text: string, exhaustive = false): string[] {
  const spans: Array<{ start: number; text: string }> = [];
  for (const fence of text.matchAll(/```[\w-]*[ \t]*\r?\n([\s\S]*?)```/g)) {
    const body = fence[1]!.trim();
    if (body.startsWith('{')) spans.push({ start: fence.index, text: body });
  }
  for (const object of objectSpans(text, exhaustive)) spans.push(object);
  spans.sort((a, b) => a.start - b.start);
  return spans.map((span) => span.text);
}

function objectSpans(text: string, exhaustive: boolean): Array<{ start: number; text: string }> {
  const found: Array<{ start: number; text: string }> = [];
  let start = text.indexOf('{');
  for (let attempts = 0; start !== -1 && attempts < MAX_OBJECT_STARTS; attempts++) {
    const end = matchingBrace(text, start);
    if (end !== -1) found.push({ start, text: text.slice(start, end + 1) });
    start = text.indexOf('{', end === -1 || exhaustive ? start + 1 : end + 1);
  }
  return found;
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings; -1 when it never closes. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return -1;
}

export type LenientJson = { ok: true; value: unknown } | { ok: false; error: string };

/** `JSON.parse`, then once more after `repairJson` if that failed. */
function parseLenientJson(text: string): LenientJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    try {
      return { ok: true, value: JSON.parse(repairJson(text)) };
    } catch {
      return { ok: false, error: (error as Error).message };
    }
  }
}

const VALID_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/**
 * Fixes what models get wrong in otherwise good JSON: a backslash that starts no valid escape is kept as a literal
 * backslash, raw control characters inside strings are escaped, and trailing commas are dropped.
 */
export function repairJson(text: string): string {
  let out = '';
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (!inString) {
      if (char === '"') inString = true;
      if (char === ',' && /^\s*[}\]]/.test(text.slice(index + 1, index + 64))) continue;
      out += char;
      continue;
    }
    if (char === '"') {
      inString = false;
      out += char;
    } else if (char === '\\') {
      const next = text[index + 1];
      if (next !== undefined && VALID_ESCAPES.has(next)) {
        out += char + next;
        index++;
      } else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
        out += text.slice(index, index + 6);
        index += 5;
      } else out += '\\\\';
    } else if (char < ' ') {
      out += `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    } else out += char;
  }
  return out;
}
