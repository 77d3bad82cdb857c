import { maskSecret } from '../../secrets/mask.js';
import type { Redact } from '../../secrets/redact.js';
import { redactSecrets, type SecretTextScanner, sharedSecretScanner } from '../../secrets/redact.js';
import type { AlertSecrets } from './types.js';

export { maskAuthorizationHeaders, maskUrlCredentials } from '../../secrets/redact.js';

/**
 * Credential masking for every output channel of validate-alert (files, stream logs, reports, messages). It is a
 * function applied in the one writer (`output-writer.ts`), not a logging filter: the reference masked only its root
 * logger, so every module logger leaked. What it hides:
 * - tollgate's own credentials (GITHUB_TOKEN), and their base64 / URL-encoded forms: replaced by `***`;
 * - the alert's secret and its encoded forms: shown only masked (`ghp_…`);
 * - `scheme://user:TOKEN@host` and `Authorization:` header values;
 * - anything tollgate's secret rules match (the same scanner as `tollgate scan`).
 */
export type { Redact };

const HIDDEN = '***';

/**
 * A credential shorter than this, or a word, is not masked by value: `GITHUB_TOKEN=t` would otherwise turn every `t`
 * of the output into `***`. Real tokens are far longer; the scanner's rules still mask any that look like secrets.
 */
const MIN_CREDENTIAL_LENGTH = 8;
const NOT_A_SECRET = /^(?:[a-z]+|\d+|true|false|null|none|undefined|changeme|placeholder)$/i;

function couldBeSecret(value: string): boolean {
  return value.length >= MIN_CREDENTIAL_LENGTH && !NOT_A_SECRET.test(value);
}

export function createRedactor(secrets: AlertSecrets, scanner: SecretTextScanner = sharedSecretScanner()): Redact {
  const replacements: Array<[string, string]> = [];
  for (const credential of secrets.credentials.filter(couldBeSecret)) {
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
    return redactSecrets(out, { scanner });
  };
}

/** The value as written, base64 (standard and URL-safe), percent-encoded, and decoded when it is base64 text itself. */
function encodedForms(value: string): string[] {
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
