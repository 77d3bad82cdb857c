import { maskSecret } from '../validators/secrets/mask.js';
import { builtinRules } from '../validators/secrets/rules/index.js';
import { SecretScanner } from '../validators/secrets/scanner.js';
import type { AlertSecrets } from './types.js';

/**
 * Credential masking for every output channel of validate-alert (files, stream logs, reports, messages). It is a
 * function applied in the one writer (`output-writer.ts`), not a logging filter: the reference masked only its root
 * logger, so every module logger leaked. What it hides:
 * - tollgate's own credentials (GITHUB_TOKEN), and their base64 / URL-encoded forms: replaced by `***`;
 * - the alert's secret and its encoded forms: shown only masked (`ghp_…`);
 * - `scheme://user:TOKEN@host` and `Authorization:` header values;
 * - anything tollgate's secret rules match (the same scanner as `tollgate scan`).
 */
export type Redact = (text: string) => string;

/** What the redactor needs from the secret scanner: raw matches with their offsets. */
export interface SecretTextScanner {
  scanText(text: string, options: { path: string }): ReadonlyArray<{ secret: string; start: number; end: number }>;
}

let builtinScanner: SecretScanner | undefined;
function defaultScanner(): SecretTextScanner {
  builtinScanner ??= new SecretScanner(builtinRules);
  return builtinScanner;
}

const HIDDEN = '***';

export function createRedactor(secrets: AlertSecrets, scanner: SecretTextScanner = defaultScanner()): Redact {
  const replacements: Array<[string, string]> = [];
  for (const credential of secrets.credentials) {
    for (const form of encodedForms(credential)) replacements.push([form, HIDDEN]);
  }
  if (secrets.alertSecret) {
    const masked = maskSecret(secrets.alertSecret);
    for (const form of encodedForms(secrets.alertSecret)) replacements.push([form, masked]);
  }
  // Longest first, so a value is not half-replaced by a shorter form of itself.
  replacements.sort((a, b) => b[0].length - a[0].length);
  return (text: string): string => {
    let out = text;
    for (const [value, replacement] of replacements) {
      if (out.includes(value)) out = out.split(value).join(replacement);
    }
    out = maskUrlCredentials(out);
    out = maskAuthorizationHeaders(out);
    return maskScannerMatches(out, scanner);
  };
}

/** The value as written, base64 (standard and URL-safe), percent-encoded, and decoded when it is base64 text itself. */
export function encodedForms(value: string): string[] {
  if (value.length < 4) return [];
  const forms = new Set<string>([value]);
  const base64 = Buffer.from(value).toString('base64');
  forms.add(base64);
  forms.add(base64.replace(/=+$/, ''));
  forms.add(Buffer.from(value).toString('base64url'));
  forms.add(encodeURIComponent(value));
  if (/^[A-Za-z0-9+/]{8,}={0,2}$/.test(value)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    // A Basic-auth header secret decodes to `user:password`: hide the decoded form too.
    if (/^[\x20-\x7e]{6,}$/.test(decoded)) forms.add(decoded);
  }
  return [...forms].filter((form) => form.length >= 4);
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

/** `Authorization: Bearer abc`, `AUTHORIZATION: basic abc`, `"authorization": "token abc"` → the value hidden. */
export function maskAuthorizationHeaders(text: string): string {
  return text.replace(
    /(authorization["']?\s*[:=]\s*["']?)(?:(bearer|token|basic)\s+)?([^\s"',;]+)/gi,
    (_m, head: string, scheme: string | undefined) => `${head}${scheme ? `${scheme} ` : ''}${HIDDEN}`,
  );
}

function maskScannerMatches(text: string, scanner: SecretTextScanner): string {
  const matches = scanner.scanText(text, { path: 'output.log' });
  if (matches.length === 0) return text;
  let out = text;
  for (const match of [...matches].sort((a, b) => b.start - a.start)) {
    out = `${out.slice(0, match.start)}${maskSecret(match.secret)}${out.slice(match.end)}`;
  }
  return out;
}
