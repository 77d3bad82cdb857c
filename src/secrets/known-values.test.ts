import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { redactionMarker } from '../integrations/github/redaction.js';
import { credentialEnvValues, isCredentialName, rememberFoundSecret, resetKnownValues } from './known-values.js';
import { redactSecrets } from './redact.js';
import { BASE32, BASE64, fakeChecksumToken, fakeToken } from './sample-tokens.js';

const awsSecret = fakeToken('', 40, BASE64, 'known-values-aws');
const awsKeyId = `AKIA${fakeToken('', 16, BASE32, 'known-values-id')}`;

describe('credential-named environment variables', () => {
  test.each([
    'AWS_SECRET_ACCESS_KEY',
    'GITHUB_TOKEN',
    'DB_PASSWORD',
    'STRIPE_API_KEY',
    'SIGNING_KEY',
    'PGPASSWORD',
    'NODE_AUTH_TOKEN',
    'MY_PASSWD',
    'client_secret',
  ])('%s is credential-named', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  test.each(['PATH', 'HOME', 'KEYBOARD', 'MONKEY', 'GIT_ASKPASS', 'TERM', 'GOPRIVATE', 'SSH_AUTH_SOCK', 'AUTH_DOMAIN'])(
    '%s is not',
    (name) => {
      expect(isCredentialName(name)).toBe(false);
    },
  );

  test('keeps values long enough to be secrets, not switches or paths', () => {
    expect(
      credentialEnvValues({
        API_TOKEN: 'a8Kd02mZq1',
        SHORT_TOKEN: 'abc',
        FEATURE_SECRET: 'disabled',
        SSH_KEY: '/home/dev/.ssh/id_ed25519',
        PATH: '/usr/bin:/bin',
        EMPTY_PASSWORD: '',
        CACHE_KEY: '1234567890',
      }),
    ).toEqual(['a8Kd02mZq1']);
  });
});

describe('redactSecrets with known values', () => {
  afterEach(() => resetKnownValues());

  test('hides a keyword-less AWS secret that sits in a credential-named variable', () => {
    process.env.TOLLGATE_TEST_AWS_SECRET_ACCESS_KEY = awsSecret;
    try {
      resetKnownValues();
      const out = redactSecrets(`deploying with ${awsSecret}\n`);
      expect(out).not.toContain(awsSecret);
      expect(out).toContain('deploying with ***');
    } finally {
      delete process.env.TOLLGATE_TEST_AWS_SECRET_ACCESS_KEY;
      resetKnownValues();
    }
  });

  test('a channel with its own marker gets it for environment values too', () => {
    process.env.TOLLGATE_TEST_DEPLOY_TOKEN = 'x9Fq2LmZ81pQ';
    try {
      resetKnownValues();
      const out = redactSecrets('token x9Fq2LmZ81pQ', { replace: (_secret, id) => redactionMarker(id) });
      expect(out).toBe('token [REDACTED:env-credential]');
    } finally {
      delete process.env.TOLLGATE_TEST_DEPLOY_TOKEN;
      resetKnownValues();
    }
  });

  test('a secret found once is masked later without its keyword', () => {
    const token = fakeChecksumToken('ghp_', 'known-values-found');
    rememberFoundSecret(token.slice(4));
    const out = redactSecrets(`the suffix ${token.slice(4)} alone`);
    expect(out).not.toContain(token.slice(4));
  });

  test('a known value is masked inside a JSON string and percent-encoded in a URL too', () => {
    const secret = 'pa"ss/w0rd\\x y';
    rememberFoundSecret(secret);
    const json = JSON.stringify({ output: `using ${secret}` });
    expect(redactSecrets(json)).not.toContain(JSON.stringify(secret).slice(1, -1));
    const url = `https://db.internal/?auth=${encodeURIComponent(secret)}`;
    expect(redactSecrets(url)).not.toContain(encodeURIComponent(secret));
  });

  test('masks a high-entropy run next to a matched key id', () => {
    for (const line of [`${awsKeyId},${awsSecret}`, `key ${awsKeyId} secret-half ${awsSecret}`]) {
      const out = redactSecrets(line);
      expect(out).not.toContain(awsSecret);
      expect(out).not.toContain(awsKeyId);
    }
  });

  test('leaves ordinary words and paths next to a key id alone', () => {
    const out = redactSecrets(`${awsKeyId} in src/validators/secrets/known-values.ts`);
    expect(out).toContain('src/validators/secrets/known-values.ts');
  });

  test('property: a remembered value never survives, whatever surrounds it', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9]{12,40}$/),
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        (secret, before, after) => {
          resetKnownValues();
          rememberFoundSecret(secret);
          expect(redactSecrets(`${before}${secret}${after}`)).not.toContain(secret);
        },
      ),
      { numRuns: 200 },
    );
  });
});
