import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../core/state/atomic-write.js';
import { controlCodesIn, controlFreeView } from './control-free-view.js';
import { companionSpans, knownValueSpans, rememberFoundSecret } from './known-values.js';
import { maskSecret } from './mask.js';
import { insideOwnWords, ownWordSpans } from './own-words.js';
import { builtinRuleTable } from './rules/table.js';
import { SecretScanner } from './scanner.js';

/**
 * Masking for text that leaves tollgate: check output, reports, hook replies, GitHub comment bodies, alert reports.
 * Everything is judged by the same rules as `tollgate scan`, plus what prose carries without a keyword the rules key
 * on: credentials in URLs, `Authorization` header values, high-entropy runs next to a matched key id, and the values
 * known to be secret (credential-named environment variables, secrets the scanner found in this process).
 */
export type Redact = (text: string) => string;

/** What redaction needs from the scanner: raw matches with their offsets. */
export interface SecretTextScanner {
  scanText(
    text: string,
    options: { path: string },
  ): ReadonlyArray<{ secret: string; start: number; end: number; rule: { id: string } }>;
  /** False only when `scanText` of this text at this path is sure to find nothing (see `SecretScanner.mayFind`). */
  mayFind?(text: string, path: string): boolean;
}

export interface RedactOptions {
  /** What a found secret becomes; default its mask (`ghp_…`). */
  replace?: (secret: string, ruleId: string) => string;
  /** The path the text is judged as (its syntax decides which generic rules apply); default a log file. */
  path?: string;
  scanner?: SecretTextScanner;
}

const HIDDEN = '***';

let shared: SecretScanner | undefined;

/** One scanner per process: building the keyword automaton is the expensive part. */
export function sharedSecretScanner(): SecretScanner {
  shared ??= new SecretScanner(builtinRuleTable);
  return shared;
}

export function redactSecrets(text: string, options: RedactOptions = {}): string {
  if (text.length === 0) return text;
  const replace = options.replace ?? ((secret: string) => maskSecret(secret));
  // Judged as a terminal shows it: a colour code or `\r` inside a token must not split it in two.
  const view = controlFreeView(text);
  const shown = view?.text ?? text;
  // Inline allow markers let a developer keep a known fixture in code; they must not let a secret into output.
  const judged = shown.replace(/(tollgate|gitleaks):allow/gi, (marker) => marker.replace(':', '_'));
  const scanner = options.scanner ?? sharedSecretScanner();
  const path = options.path ?? 'output.log';
  // Most output (a progress line, a file path) holds no rule keyword: then the scan would find nothing, and skipping
  // it (and its per-scan allocations) changes no byte of the result.
  const spans: Span[] = scanner.mayFind?.(judged, path) === false ? [] : scannedSpans(scanner, judged, path, shown);
  for (const span of knownValueSpans(shown)) spans.push({ start: span.start, end: span.end, ruleId: span.kind });
  let out = '';
  let at = 0;
  for (const span of mergeOverlaps(spans)) {
    const secret = shown.slice(span.start, span.end);
    // An environment credential shows nothing of itself by default: nothing in the change made it recognisable.
    const masked = span.ruleId === 'env-credential' && !options.replace ? HIDDEN : replace(secret, span.ruleId);
    const start = view ? view.startAt(span.start) : span.start;
    const end = view ? view.endAt(span.end) : span.end;
    out += text.slice(at, start) + masked + (view ? controlCodesIn(text.slice(start, end)) : '');
    at = end;
  }
  return maskAuthorizationHeaders(maskUrlCredentials(out + text.slice(at)));
}

/** What the scanner finds in `judged`, and the high-entropy runs beside a matched key id. */
function scannedSpans(scanner: SecretTextScanner, judged: string, path: string, shown: string): Span[] {
  const own = ownWordSpans(shown);
  // A match inside tollgate's own prose is no value of the user's: neither masked nor remembered as a secret.
  const matches = scanner.scanText(judged, { path }).filter((match) => !insideOwnWords(own, match.start, match.end));
  const spans: Span[] = matches.map((match) => ({ start: match.start, end: match.end, ruleId: match.rule.id }));
  for (const match of matches) rememberFoundSecret(match.secret);
  for (const span of companionSpans(judged, matches)) {
    if (!insideOwnWords(own, span.start, span.end)) spans.push({ ...span, ruleId: 'key-companion-secret' });
  }
  return spans;
}

interface Span {
  start: number;
  end: number;
  ruleId: string;
}

/** Overlapping spans become one (the earliest's rule names it), so no part of either secret is left showing. */
function mergeOverlaps(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** `https://user:TOKEN@host` → `https://user:***@host`; `https://<long token>@host` → `https://***@host`. */
export function maskUrlCredentials(text: string): string {
  // Both patterns need a scheme's `://`: a text without one (a file path, most output) comes back as it is, without
  // the two scans (a quarter to a third of the masking of a first run's 2,000 report paths).
  if (!text.includes('://')) return text;
  return text
    .replace(
      /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/:@'"]*):([^\s/@'"]+)@/gi,
      (_m, scheme, user) => `${scheme}${user}:${HIDDEN}@`,
    )
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([A-Za-z0-9_\-.]{20,})@/gi, (_m, scheme) => `${scheme}${HIDDEN}@`);
}

/** `Authorization: Bearer abc`, `"authorization": "token abc"` → the value hidden, the scheme kept. */
export function maskAuthorizationHeaders(text: string): string {
  return text.replace(
    /(authorization["']?\s*[:=]\s*["']?)(?:(bearer|token|basic)\s+)?([^\s"',;]+)/gi,
    (_m, head: string, scheme: string | undefined) => `${head}${scheme ? `${scheme} ` : ''}${HIDDEN}`,
  );
}

/**
 * Rewrites a log file with its secrets masked (temp file + rename, mode kept at 0600). For logs written while a child
 * process streams output, where a secret can only be recognised once the whole text is there.
 */
export async function redactFileInPlace(path: string): Promise<void> {
  const text = await readFile(path, 'utf8');
  const masked = redactSecrets(text);
  if (masked !== text) await writeFileAtomic(path, masked, { mode: 0o600 });
}
