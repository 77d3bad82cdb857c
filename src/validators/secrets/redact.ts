import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import { maskSecret } from './mask.js';
import { builtinRules } from './rules/index.js';
import { SecretScanner } from './scanner.js';

/**
 * Masking for text that leaves tollgate: check output, reports, hook replies, GitHub comment bodies, alert reports.
 * Everything is judged by the same rules as `tollgate scan`, plus two shapes that prose carries without a keyword the
 * rules key on: credentials in URLs and `Authorization` header values.
 */
export type Redact = (text: string) => string;

/** What redaction needs from the scanner: raw matches with their offsets. */
export interface SecretTextScanner {
  scanText(
    text: string,
    options: { path: string },
  ): ReadonlyArray<{ secret: string; start: number; end: number; rule: { id: string } }>;
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
  shared ??= new SecretScanner(builtinRules);
  return shared;
}

export function redactSecrets(text: string, options: RedactOptions = {}): string {
  if (text.length === 0) return text;
  const replace = options.replace ?? ((secret: string) => maskSecret(secret));
  // Inline allow markers let a developer keep a known fixture in code; they must not let a secret into output.
  const judged = text.replace(/(tollgate|gitleaks):allow/gi, (marker) => marker.replace(':', '_'));
  const matches = (options.scanner ?? sharedSecretScanner()).scanText(judged, { path: options.path ?? 'output.log' });
  let out = '';
  let at = 0;
  for (const match of [...matches].sort((a, b) => a.start - b.start)) {
    if (match.start < at) continue;
    out += text.slice(at, match.start) + replace(match.secret, match.rule.id);
    at = match.end;
  }
  return maskAuthorizationHeaders(maskUrlCredentials(out + text.slice(at)));
}

/** `https://user:TOKEN@host` → `https://user:***@host`; `https://<long token>@host` → `https://***@host`. */
export function maskUrlCredentials(text: string): string {
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
