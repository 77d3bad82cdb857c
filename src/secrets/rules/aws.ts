import { checkedGate } from '../gate-checks.js';
import { ALNUM, nameGate, nameRunEnd, separatorAt, valueAt } from '../name-gate.js';
import { defineRules } from '../rule.js';
import { prefixedToken } from '../rule-builders.js';
import { BASE64, fakeToken, lazySamples } from '../sample-tokens.js';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** Keys issued before AWS moved to base32 ids carry any digit (`AKIAI44QH8DH…` in AWS's own docs). */
const OLD_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SECRET_ALPHABET = BASE64;

/** Per ASCII code, 1 for `[A-Za-z0-9/+]`. */
const KEY_CHARS = (() => {
  const table = new Uint8Array(128);
  for (const char of `${ALNUM}/+`) table[char.charCodeAt(0)] = 1;
  return table;
})();
const KEY_LENGTH = 40;

/**
 * What the secret key's gate needs at its end, read in code: past the name, its separator and an optional quote, forty
 * characters of `[A-Za-z0-9/+]` (the last read first). A credential-named JSON key with a short value or a name as its
 * value (`"secret_3": "cfg_access_key_3"`) then runs no regex.
 */
function fortyKeyCharacters(text: string, after: number): boolean {
  let at = valueAt(text, separatorAt(text, nameRunEnd(text, after)));
  const quote = text.charCodeAt(at);
  if (quote === 34 || quote === 39) at++;
  if (KEY_CHARS[text.charCodeAt(at + KEY_LENGTH - 1)] !== 1) return false;
  for (let end = at + KEY_LENGTH - 1; at < end; at++) if (KEY_CHARS[text.charCodeAt(at)] !== 1) return false;
  return true;
}

export default defineRules([
  prefixedToken({
    id: 'aws-bedrock-short-term-key',
    title: 'Amazon Bedrock short-term API key',
    prefix: 'bedrock-api-key-',
    body: '[A-Za-z0-9+/=_-]{24,2048}',
    severity: 'critical',
    match: () => [fakeToken('bedrock-api-key-', 32)],
  }),
  prefixedToken({
    id: 'aws-appsync-api-key',
    title: 'AWS AppSync API key',
    prefix: 'da2-',
    body: '[a-z0-9]{26}',
    severity: 'medium',
    entropy: 3.5,
    match: () => [fakeToken('da2-', 26, 'abcdefghijklmnopqrstuvwxyz0123456789')],
  }),
  {
    id: 'aws-access-key-id',
    title: 'AWS access key ID (AKIA…)',
    severity: 'high',
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3T'],
    pattern: /(?<![A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16})(?![A-Za-z0-9])/,
    samples: lazySamples(() => ({
      match: [
        fakeToken('AKIA', 16, ID_ALPHABET),
        fakeToken('ASIA', 16, ID_ALPHABET),
        fakeToken('AKIA', 16, OLD_ID_ALPHABET),
        fakeToken('A3TX', 16, OLD_ID_ALPHABET),
      ],
      ignore: ['AKIAIOSFODNN7EXAMPLE', 'AKIA' + 'X'.repeat(16), 'AKIA1234', 'AKIA0123456789ABCDEF'],
    })),
  },
  {
    id: 'aws-secret-access-key',
    title: 'AWS secret access key',
    severity: 'critical',
    // Forty base64 characters are everywhere; only a name that says "AWS secret" makes them one. `secret` is the
    // keyword (not `aws`, which is on every other line of the AWS SDK).
    keywords: ['secret'],
    // The rest of the name, the separator and the forty characters: `secret` names many values that are not AWS keys.
    gate: checkedGate(
      nameGate(
        { run: 40, at: 'separator', chars: '=:', value: `"'${ALNUM}/+` },
        String.raw`["']?[ \t]{0,4}(?:=|:=|:|=>)[ \t]{0,4}["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`,
      ),
      fortyKeyCharacters,
    ),
    pattern:
      /(?:aws[A-Za-z0-9_.-]{0,20}?secret[A-Za-z0-9_.-]{0,20}|secret[_-]?access[_-]?key)["']?[ \t]{0,4}(?:=|:=|:|=>)[ \t]{0,4}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/i,
    entropy: 4,
    samples: lazySamples(() => ({
      key: 'aws_secret_access_key',
      match: [fakeToken('', 40, SECRET_ALPHABET)],
      ignore: ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', `\${AWS_SECRET_ACCESS_KEY}`, 'a'.repeat(40)],
    })),
  },
  {
    id: 'aws-session-token',
    title: 'AWS session token',
    severity: 'high',
    keywords: ['session_token', 'sessiontoken', 'security_token'],
    pattern:
      /(?:aws_?)?(?:session|security)_?token["']?[ \t]{0,4}(?:=|:|=>)[ \t]{0,4}["']?([A-Za-z0-9/+]{100,1500}={0,2})(?![A-Za-z0-9/+=])/i,
    entropy: 4.5,
    samples: lazySamples(() => ({
      key: 'aws_session_token',
      match: [fakeToken('IQoJb3JpZ2luX2Vj', 280, SECRET_ALPHABET)],
      ignore: [`\${AWS_SESSION_TOKEN}`, 'IQoJb3JpZ2luX2Vj...'],
    })),
  },
  {
    id: 'aws-mws-auth-token',
    title: 'Amazon MWS auth token (amzn.mws.…)',
    severity: 'high',
    keywords: ['amzn.mws.'],
    pattern: /amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/,
    samples: lazySamples(() => ({
      match: [
        `amzn.mws.${fakeToken('', 8, '0123456789abcdef')}-4b1c-9d2e-${fakeToken('', 4, '0123456789abcdef')}-${fakeToken('', 12, '0123456789abcdef')}`,
      ],
      ignore: ['amzn.mws.00000000-0000-0000-0000-000000000000'],
    })),
  },
  {
    id: 'aws-bedrock-api-key',
    title: 'Amazon Bedrock API key (ABSK…)',
    severity: 'high',
    keywords: ['ABSK'],
    pattern: /(?<![A-Za-z0-9])(ABSK[A-Za-z0-9+/]{109,269}={0,2})(?![A-Za-z0-9+/=])/,
    entropy: 4,
    samples: lazySamples(() => ({
      match: [fakeToken('ABSK', 128, SECRET_ALPHABET)],
      ignore: ['ABSK' + 'A'.repeat(120)],
    })),
  },
]);
