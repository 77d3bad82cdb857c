import { checkedGate } from '../gate-checks.js';
import { nameGate } from '../name-gate.js';
import { defineRules, type SecretRule } from '../rule.js';
import { namedValue, prefixedToken } from '../rule-builders.js';
import { fakeToken, LOWER_ALPHANUMERIC, lazySamples, URL_SAFE } from '../sample-tokens.js';
import { mixesDigitsAndCases } from '../token-shape.js';

/** Per ASCII code: 1 for a name character (`[A-Za-z0-9_.-]`), 2 for what the legacy gate allows between name and value. */
const AROUND = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-') AROUND[char.charCodeAt(0)] = 1;
for (const char of '"\'` \t=:>,') AROUND[char.charCodeAt(0)] = 2;

/**
 * The legacy token gate's `s.`, `b.` or `r.` read in code: past the rest of the name (20 characters at most), only
 * quotes, blanks and the separator (12 characters at most), then one of `sbrSBR` and a dot. A `token` hit before
 * anything else (14,795 gate regex tests a pass of the rule-cost bench's 64 MB, none passing) stops here. Reads ahead
 * only, within the line, and stops at any code unit outside ASCII (none of which the gate matches).
 */
function legacyValueAhead(text: string, after: number): boolean {
  let at = after;
  while (at < text.length && at - after <= 20 && AROUND[text.charCodeAt(at)] === 1) at++;
  if (at - after > 20) return false;
  for (const limit = Math.min(text.length, at + 13); at < limit; at++) {
    const code = text.charCodeAt(at);
    const lower = code | 0x20;
    if (lower === 115 || lower === 98 || lower === 114) return at + 1 < text.length && text.charCodeAt(at + 1) === 46;
    if (code >= 128 || AROUND[code] !== 2) return false;
  }
  return false;
}

/** Vault tokens only as whole tokens: `settings.hvs.something` in code is a property path, not a token. */
const wholeToken = (rule: SecretRule, prefix: string, body: string): SecretRule => ({
  ...rule,
  pattern: new RegExp(`(?<![A-Za-z0-9_.-])(${prefix}${body})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_])`),
  validate: mixesDigitsAndCases,
  samples: lazySamples(() => ({
    key: rule.samples.key,
    match: rule.samples.match,
    contexts: rule.samples.contexts,
    ignore: [...rule.samples.ignore, `settings.${rule.samples.match[0]}`, `${rule.samples.match[0]}.field`],
  })),
});

export default defineRules([
  wholeToken(
    prefixedToken({
      id: 'hashicorp-vault-service-token',
      title: 'HashiCorp Vault service token',
      prefix: 'hvs.',
      body: '[A-Za-z0-9_-]{24,250}',
      severity: 'critical',
      match: () => [fakeToken('hvs.', 95, URL_SAFE)],
    }),
    'hvs\\.',
    '[A-Za-z0-9_-]{24,250}',
  ),
  wholeToken(
    prefixedToken({
      id: 'hashicorp-vault-batch-token',
      title: 'HashiCorp Vault batch token',
      prefix: 'hvb.',
      body: '[A-Za-z0-9_-]{100,300}',
      severity: 'critical',
      match: () => [fakeToken('hvb.', 138, URL_SAFE)],
    }),
    'hvb\\.',
    '[A-Za-z0-9_-]{100,300}',
  ),
  wholeToken(
    prefixedToken({
      id: 'hashicorp-vault-recovery-token',
      title: 'HashiCorp Vault recovery token',
      prefix: 'hvr.',
      body: '[A-Za-z0-9_-]{24,250}',
      severity: 'critical',
      match: () => [fakeToken('hvr.', 95, URL_SAFE)],
    }),
    'hvr\\.',
    '[A-Za-z0-9_-]{24,250}',
  ),
  // Before Vault 1.10 (2022) service tokens were `s.` + 24 characters and batch tokens `b.AAAAAQ…`; many are still
  // in long-lived configs. `s.` alone is everywhere in code, so the old service token needs a Vault-named key.
  {
    ...namedValue({
      id: 'hashicorp-vault-legacy-service-token',
      title: 'HashiCorp Vault service token, pre-1.10 format (s.…)',
      provider: 'vault',
      body: 's\\.[A-Za-z0-9]{24}',
      severity: 'critical',
      key: 'VAULT_TOKEN',
      match: () => [fakeToken('s.', 24)],
      ignore: () => ['s.xxxxxxxxxxxxxxxxxxxxxxxx', 's.AAAAAAAAAAAAAAAAAAAAAAAA'],
    }),
    validate: (secret: string) => mixesDigitsAndCases(secret.slice(2)),
  },
  // The same old service, batch and recovery tokens under any token-named key (`token: s.…`, `X_VAULT_TOKEN`,
  // `-vaultToken`): `s.` + exactly 24 characters mixing digits and both cases is the old format and little else.
  // Tokens issued in an HCP or Enterprise namespace before 1.10 were longer: `s.` + a protobuf in base64 (`s.CAES…`).
  {
    id: 'hashicorp-vault-legacy-token-named',
    title: 'HashiCorp Vault token, pre-1.10 format (s./b./r.…, under a token-named key)',
    severity: 'critical',
    keywords: ['token'],
    // What follows a `token` hit: the rest of the name, a separator (a blank one lands on the value), then `s.`, `b.`
    // or `r.`, possibly quoted. Keyword-dense data has a `token` key on every few lines and never this value.
    gate: checkedGate(
      nameGate(
        { run: 20, at: 'separator', chars: '=:,sbrSBR"\'`', value: ',sbrSBR"\'`' },
        '["\']?[ \\t]{0,4}(?:=|:=|:|=>|,|[ \\t])[ \\t]{0,4}["\'`]?[sbr]\\.',
        'i',
      ),
      legacyValueAhead,
    ),
    pattern:
      /(?<![A-Za-z0-9_.-])(?<name>-{0,2}[A-Za-z0-9_.-]{0,30}?token[A-Za-z0-9_.-]{0,20})["']?[ \t]{0,4}(?:=|:=|:|=>|,|[ \t])[ \t]{0,4}["'`]?(?<secret>[sbr]\.(?:[A-Za-z0-9]{24}|CAES[A-Za-z0-9_-]{60,200}))(?![A-Za-z0-9_.-])/i,
    validate: (secret: string) => mixesDigitsAndCases(secret.slice(2)),
    samples: lazySamples(() => ({
      key: 'token',
      match: [fakeToken('s.', 24, undefined, 'vault-old-1'), fakeToken('r.', 24, undefined, 'vault-old-2')],
      ignore: ['s.xxxxxxxxxxxxxxxxxxxxxxxx', 's.abcdefghijklmnopqrstuvwx', 's.toString', `\${VAULT_TOKEN}`],
    })),
  },
  wholeToken(
    prefixedToken({
      id: 'hashicorp-vault-legacy-batch-token',
      title: 'HashiCorp Vault batch token, pre-1.10 format',
      prefix: 'b.AAAAAQ',
      body: '[A-Za-z0-9_-]{80,300}',
      severity: 'critical',
      match: () => [fakeToken('b.AAAAAQ', 130, URL_SAFE)],
    }),
    'b\\.AAAAAQ',
    '[A-Za-z0-9_-]{80,300}',
  ),
  {
    id: 'hashicorp-terraform-cloud-token',
    title: 'Terraform Cloud / Enterprise API token (….atlasv1.…)',
    severity: 'critical',
    keywords: ['.atlasv1.'],
    pattern: /(?<![A-Za-z0-9])([A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])/,
    entropy: 3.5,
    samples: lazySamples(() => ({
      match: [`${fakeToken('', 14, LOWER_ALPHANUMERIC)}.atlasv1.${fakeToken('', 67, URL_SAFE)}`],
      ignore: ['xxxxxxxxxxxxxx.atlasv1.xxxx'],
    })),
  },
]);
