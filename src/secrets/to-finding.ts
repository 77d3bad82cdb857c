import { type Finding, makeFinding, type Severity } from '../core/finding.js';
import { secretFingerprint } from './fingerprint.js';
import { fixtureSeverity, isFixture } from './fixtures.js';
import { rememberFoundSecret } from './known-values.js';
import { maskSecret } from './mask.js';
import type { RawSecret } from './scanner.js';
import { type BlockedSuppression, blockedSuppressionNote } from './suppressions.js';

/** A secret as it may leave the scanner: located, masked, fingerprinted; the raw value is gone. */
export interface SecretFinding {
  readonly ruleId: string;
  readonly title: string;
  readonly severity: Severity;
  readonly path: string;
  readonly line: number;
  readonly column: number;
  /** At most the first 4 characters, then `…`. */
  readonly masked: string;
  /** SHA-256 of rule id + path + secret. */
  readonly fingerprint: string;
  /** The line was added by the change set (always true outside a change set, e.g. `tollgate scan FILE`). */
  readonly isNew: boolean;
  /**
   * A made-up value in a test, fixture, example or docs path (`fixtures.ts`): its severity is lowered to low, and by
   * default (`secrets.fixtures: report`) it is shown and counted but does not block.
   */
  readonly fixture?: true;
  /** The commit that added it (`tollgate scan --history`). */
  readonly commit?: string;
  /** It had a suppression that the gate did not accept, and why. */
  readonly suppression?: BlockedSuppression;
  /** With `tollgate scan --verify`: what the provider said. `unknown` never means safe. */
  readonly verification?: 'live' | 'invalid' | 'unknown';
  /** Why the verification is `unknown` (rate limited, timeout, no verifier…). */
  readonly verificationReason?: string;
}

export function toSecretFinding(raw: RawSecret, path: string, isNew: boolean): SecretFinding {
  // The raw value is dropped here, but output later in this process (a check echoing it, a reviewer quoting it)
  // must still mask it where it appears without the context that made it recognisable.
  rememberFoundSecret(raw.secret);
  const fixture = isFixture({
    ruleId: raw.rule.id,
    generic: raw.rule.generic === true,
    path,
    secret: raw.secret,
    docExample: raw.docExample === true,
  });
  return {
    ruleId: raw.rule.id,
    title: raw.rule.title,
    severity: fixture ? fixtureSeverity(raw.rule.severity) : raw.rule.severity,
    path,
    line: raw.line,
    column: raw.column,
    masked: maskSecret(raw.secret),
    fingerprint: secretFingerprint(raw.rule.id, path, raw.secret),
    isNew,
    ...(fixture ? { fixture: true as const } : {}),
  };
}

/** The shared Finding of a secret; its id is anchored on the fingerprint so it survives lines moving. */
export function toFinding(secret: SecretFinding): Finding {
  return makeFinding({
    validator: 'secrets',
    ruleId: secret.ruleId,
    severity: secret.severity,
    title: secret.title,
    body: [
      `Found ${secret.masked} (${secret.ruleId}).`,
      secret.fixture
        ? 'Classified as a test fixture (test, example or docs path, or a doc comment example; made-up value).'
        : '',
      secret.verification ? verificationNote(secret) : '',
      secret.suppression ? blockedSuppressionNote(secret.suppression) : '',
    ]
      .filter(Boolean)
      .join(' '),
    path: secret.path,
    line: secret.line,
    column: secret.column,
    anchor: secret.fingerprint,
  });
}

/** What the provider said, in the finding's words; `unknown` is never read as safe. */
function verificationNote(secret: SecretFinding): string {
  if (secret.verification === 'live') return 'Its provider says it is LIVE: revoke and rotate it now.';
  if (secret.verification === 'invalid')
    return 'Its provider rejects it (revoked or never valid here); remove it all the same.';
  return `Not verified${secret.verificationReason ? ` (${secret.verificationReason})` : ''}: treat it as live.`;
}

/** `src/api.ts:42:7 secrets/github-pat GitHub personal access token (ghp_…): ghp_… remove it and rotate the token` */
export function formatSecretLine(secret: SecretFinding): string {
  return `${secret.path}:${secret.line}:${secret.column} secrets/${secret.ruleId} ${secret.title}: ${secret.masked} remove it and rotate the credential`;
}
