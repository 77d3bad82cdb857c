import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnswer,
  type FakeProvider,
  makeTestCa,
  removeTestCa,
  type SeenRequest,
  startFakeProvider,
  type TestCa,
} from '../../../test/fakes/https-provider/fake-provider.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { classifyByStatus } from './types.js';
import { VERIFIERS } from './verifiers.js';
import { type VerifyCandidate, type VerifyOptions, verifySecrets } from './verify-secrets.js';

const CANARY = 'CANARYtollgateVERIFYsecret0123456789';
const token = (prefix: string) => `${prefix}${CANARY}`;

/** The fake's script: which token gets which answer, and the exact request each provider must send. */
const ANSWERS: Record<string, FakeAnswer> = {
  [token('live-')]: { status: 200, body: '{"ok":true}' },
  [token('revoked-')]: { status: 401 },
  [token('limited-')]: { status: 429 },
  [token('broken-')]: { status: 500 },
  [token('slow-')]: 'hang',
  [token('slackbad-')]: { status: 200, body: '{"ok":false,"error":"invalid_auth"}' },
};

function credentialOf(req: SeenRequest): string {
  const auth = req.headers.authorization;
  const awsKeyId = typeof auth === 'string' ? /^AWS4-HMAC-SHA256 Credential=([A-Z0-9]+)\//.exec(auth)?.[1] : undefined;
  if (awsKeyId) return awsKeyId === 'AKIALIVEKEYID0000000' ? token('live-') : token('revoked-');
  if (typeof auth === 'string' && auth.startsWith('Basic ')) {
    // Mailgun (api:KEY) and Twilio (AccountSid:AuthToken): the password half is the credential.
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    return decoded.slice(decoded.indexOf(':') + 1);
  }
  if (typeof auth === 'string') return auth.replace(/^Bearer /, '');
  return String(req.headers['private-token'] ?? req.headers['x-api-key'] ?? '');
}

let ca: TestCa;
let fake: FakeProvider;
let repoRoot: string;

beforeAll(async () => {
  ca = makeTestCa();
  fake = await startFakeProvider(ca, (req) => ANSWERS[credentialOf(req)] ?? { status: 404 });
});
afterAll(async () => {
  await fake.close();
  removeTestCa(ca);
});

function freshRepo(): string {
  repoRoot = mkdtempSync(join(tmpdir(), 'tollgate-verify-'));
  return repoRoot;
}

function options(overrides: Partial<VerifyOptions> = {}): VerifyOptions & { count: () => number } {
  let requests = 0;
  return {
    repoRoot,
    network: 'allow',
    limit: 50,
    // Long enough for a TLS request to the local fake on a loaded machine; the hanging request waits it out.
    timeoutMs: timeBudget(1500),
    endpoints: { github: fake.base, gitlab: fake.base },
    hostOverrides: {
      aws: fake.base,
      slack: fake.base,
      stripe: fake.base,
      openai: fake.base,
      anthropic: fake.base,
      npm: fake.base,
      mailgun: fake.base,
      twilio: fake.base,
    },
    ca: ca.ca,
    onRequest: () => {
      requests++;
    },
    count: () => requests,
    ...overrides,
  };
}

const candidate = (
  ruleId: string,
  secret: string,
  fingerprint = `${ruleId}:${secret.slice(0, 4)}`,
): VerifyCandidate => ({
  ruleId,
  secret,
  fingerprint,
});

describe('verifier table', () => {
  it('builds each provider its own read-only request', () => {
    const req = (ruleId: string) => {
      const verifier = VERIFIERS.get(ruleId);
      if (!verifier) throw new Error(ruleId);
      return verifier.request('T', verifier.defaultBase, { now: new Date() });
    };
    expect(req('github-pat')).toMatchObject({ method: 'GET', url: 'https://api.github.com/user' });
    expect(req('github-pat').headers.authorization).toBe('Bearer T');
    expect(req('gitlab-pat')).toMatchObject({ method: 'GET', url: 'https://gitlab.com/api/v4/user' });
    expect(req('gitlab-pat').headers['private-token']).toBe('T');
    expect(req('slack-bot-token')).toMatchObject({ method: 'POST', url: 'https://slack.com/api/auth.test' });
    expect(req('stripe-secret-key').url).toBe('https://api.stripe.com/v1/balance');
    expect(req('openai-api-key').url).toBe('https://api.openai.com/v1/models');
    expect(req('anthropic-api-key')).toMatchObject({
      url: 'https://api.anthropic.com/v1/models',
      headers: { 'x-api-key': 'T', 'anthropic-version': '2023-06-01' },
    });
    expect(req('huggingface-access-token').url).toBe('https://huggingface.co/api/whoami-v2');
    expect(req('groq-api-key')).toMatchObject({
      url: 'https://api.groq.com/openai/v1/models',
      headers: { authorization: 'Bearer T' },
    });
    expect(req('mistral-api-key').url).toBe('https://api.mistral.ai/v1/models');
    expect(req('deepseek-api-key').url).toBe('https://api.deepseek.com/models');
    expect(req('xai-api-key').url).toBe('https://api.x.ai/v1/models');
    expect(req('together-api-key').url).toBe('https://api.together.xyz/v1/models');
    expect(req('fireworks-api-key').url).toBe('https://api.fireworks.ai/inference/v1/models');
    expect(req('cohere-api-key').url).toBe('https://api.cohere.com/v1/models');
    expect(req('replicate-api-token').url).toBe('https://api.replicate.com/v1/account');
    expect(req('npm-access-token').url).toBe('https://registry.npmjs.org/-/whoami');
    expect(req('sendgrid-api-key')).toMatchObject({
      url: 'https://api.sendgrid.com/v3/scopes',
      headers: { authorization: 'Bearer T' },
    });
    expect(req('datadog-api-key')).toMatchObject({
      url: 'https://api.datadoghq.com/api/v1/validate',
      headers: { 'dd-api-key': 'T' },
    });
    // Another Datadog site's key is refused on US1 too: that is not proof it is dead.
    const datadog = VERIFIERS.get('datadog-api-key')!;
    expect(datadog.classify!({ status: 403, body: '' }).status).toBe('unknown');
    expect(datadog.classify!({ status: 200, body: '{"valid":true}' }).status).toBe('live');
    for (const verifier of VERIFIERS.values()) expect(verifier.defaultBase).toMatch(/^https:\/\//);
  });

  it('classifies by status and never calls anything safe', () => {
    expect(classifyByStatus({ status: 200, body: '' }).status).toBe('live');
    expect(classifyByStatus({ status: 401, body: '' }).status).toBe('invalid');
    expect(classifyByStatus({ status: 403, body: '' }).status).toBe('invalid');
    for (const status of [301, 404, 429, 500, 503])
      expect(classifyByStatus({ status, body: '' }).status).toBe('unknown');
  });
});

describe('verifySecrets against a local HTTPS fake', () => {
  it('sends the exact request and classifies live, revoked, 429, 500, timeout and Slack ok:false', async () => {
    freshRepo();
    const opts = options();
    const { results } = await verifySecrets(
      [
        candidate('github-pat', token('live-'), 'a'),
        candidate('gitlab-pat', token('revoked-'), 'b'),
        candidate('stripe-secret-key', token('limited-'), 'c'),
        candidate('openai-api-key', token('broken-'), 'd'),
        candidate('anthropic-api-key', token('slow-'), 'e'),
        candidate('slack-bot-token', token('slackbad-'), 'f'),
        candidate('aws-access-key-id', token('live-'), 'g'),
      ],
      opts,
    );
    expect(Object.fromEntries([...results].map(([key, value]) => [key, value.status]))).toEqual({
      a: 'live',
      b: 'invalid',
      c: 'unknown',
      d: 'unknown',
      e: 'unknown',
      f: 'invalid',
      g: 'unknown',
    });
    expect(results.get('e')?.reason).toMatch(/timed out/);
    expect(results.get('c')?.reason).toMatch(/429/);
    const byPath = (path: string) => fake.seen.find((req) => req.path === path);
    expect(byPath('/user')).toMatchObject({ method: 'GET', headers: { authorization: `Bearer ${token('live-')}` } });
    expect(byPath('/api/v4/user')?.headers['private-token']).toBe(token('revoked-'));
    expect(byPath('/api/auth.test')?.method).toBe('POST');
    expect(byPath('/v1/balance')?.headers.authorization).toBe(`Bearer ${token('limited-')}`);
    expect(fake.seen.find((req) => req.headers['x-api-key'])?.headers['anthropic-version']).toBe('2023-06-01');
    expect(opts.count()).toBe(6);
    const everything =
      JSON.stringify([...results]) + readFileSync(join(repoRoot, '.tollgate', 'verify-cache.json'), 'utf8');
    expect(everything).not.toContain(CANARY);
    rmSync(repoRoot, { recursive: true, force: true });
  });

  it('answers a second run from the cache without a request, and asks again for unknowns', async () => {
    freshRepo();
    const list = [candidate('github-pat', token('live-'), 'a'), candidate('stripe-secret-key', token('broken-'), 'b')];
    await verifySecrets(list, options());
    const second = options();
    const { results } = await verifySecrets(list, second);
    expect(results.get('a')?.status).toBe('live');
    expect(second.count()).toBe(1);
    rmSync(repoRoot, { recursive: true, force: true });
  });

  it('stops at secrets.verifyLimit and says so', async () => {
    freshRepo();
    const opts = options({ limit: 1 });
    const { results, notes } = await verifySecrets(
      [candidate('github-pat', token('live-'), 'a'), candidate('gitlab-pat', token('revoked-'), 'b')],
      opts,
    );
    expect(opts.count()).toBe(1);
    expect(results.get('b')).toEqual({ status: 'unknown', reason: 'over secrets.verifyLimit' });
    expect(notes.join()).toMatch(/verifyLimit \(1\)/);
    rmSync(repoRoot, { recursive: true, force: true });
  });

  it("sends nothing once the run is stopped (the gate's budget), and says so", async () => {
    freshRepo();
    const stopped = new AbortController();
    stopped.abort();
    const opts = options({ signal: stopped.signal });
    const { results } = await verifySecrets([candidate('github-pat', token('live-'), 'a')], opts);
    expect(opts.count()).toBe(0);
    expect(results.get('a')).toEqual({ status: 'unknown', reason: 'not asked: the run stopped' });
    rmSync(repoRoot, { recursive: true, force: true });
  });

  it('sends nothing when permissions.network is deny', async () => {
    freshRepo();
    const before = fake.seen.length;
    const opts = options({ network: 'deny' });
    const { results, notes } = await verifySecrets([candidate('github-pat', token('live-'), 'a')], opts);
    expect(opts.count()).toBe(0);
    expect(fake.seen.length).toBe(before);
    expect(results.get('a')?.status).toBe('unknown');
    expect(notes).toEqual(['verification off: permissions.network is deny']);
    rmSync(repoRoot, { recursive: true, force: true });
  });
});

describe('AWS STS verification', () => {
  it('signs GetCallerIdentity with the paired key ID, never sending the secret key', async () => {
    freshRepo();
    const opts = options();
    const before = fake.seen.length;
    const { results } = await verifySecrets(
      [
        { ...candidate('aws-secret-access-key', token('awssecret-'), 'a'), companion: 'AKIALIVEKEYID0000000' },
        { ...candidate('aws-secret-access-key', token('awsother-'), 'b'), companion: 'AKIAOTHERKEYID000000' },
        candidate('aws-secret-access-key', token('alone-'), 'c'),
        { ...candidate('aws-secret-access-key', token('temp-'), 'd'), companion: 'ASIATEMPKEYID0000000' },
      ],
      opts,
    );
    expect(['a', 'b', 'c', 'd'].map((key) => results.get(key)?.status)).toEqual([
      'live',
      'invalid',
      'unknown',
      'unknown',
    ]);
    expect(results.get('c')?.reason).toMatch(/no access key ID/);
    expect(results.get('d')?.reason).toMatch(/session token/);
    const sent = fake.seen.slice(before);
    expect(sent).toHaveLength(2);
    for (const req of sent) {
      expect(req).toMatchObject({ method: 'GET', path: '/?Action=GetCallerIdentity&Version=2011-06-15' });
      expect(String(req.headers.authorization)).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIA[A-Z0-9]{16}\/\d{8}\/us-east-1\/sts\/aws4_request, SignedHeaders=host;x-amz-date, Signature=[0-9a-f]{64}$/,
      );
      expect(JSON.stringify(req.headers)).not.toContain(CANARY);
    }
    rmSync(repoRoot, { recursive: true, force: true });
  });
});

describe('Mailgun and Twilio (basic auth)', () => {
  const SID = `AC${'0123456789abcdef'.repeat(2)}`;

  it('builds the documented requests: Mailgun api:KEY on /v3/domains, Twilio SID:token on the account', () => {
    const mailgun = VERIFIERS.get('mailgun-api-key')!;
    expect(mailgun.request('key-T', mailgun.defaultBase, { now: new Date() })).toEqual({
      method: 'GET',
      url: 'https://api.mailgun.net/v3/domains?limit=1',
      headers: { authorization: `Basic ${Buffer.from('api:key-T').toString('base64')}` },
    });
    const twilio = VERIFIERS.get('twilio-auth-token')!;
    expect(twilio.request('T', twilio.defaultBase, { now: new Date(), companion: SID })).toEqual({
      method: 'GET',
      url: `https://api.twilio.com/2010-04-01/Accounts/${SID}.json`,
      headers: { authorization: `Basic ${Buffer.from(`${SID}:T`).toString('base64')}` },
    });
    expect(twilio.cannotVerify!({ now: new Date() })).toMatch(/account SID/);
    // Mailgun: 403 is "valid credentials, access denied", never proof the key is dead.
    expect(mailgun.classify!({ status: 403, body: '' }).status).toBe('unknown');
    expect(mailgun.classify!({ status: 401, body: '' }).status).toBe('invalid');
    expect(VERIFIERS.has('twilio-api-key')).toBe(false);
  });

  it('asks the fake and classifies; a Twilio token without its SID sends nothing', async () => {
    freshRepo();
    const opts = options();
    const before = fake.seen.length;
    const { results } = await verifySecrets(
      [
        candidate('mailgun-api-key', token('live-'), 'a'),
        candidate('mailgun-api-key', token('revoked-'), 'b'),
        { ...candidate('twilio-auth-token', token('live-'), 'c'), companion: SID },
        { ...candidate('twilio-auth-token', token('limited-'), 'd'), companion: SID },
        candidate('twilio-auth-token', token('broken-'), 'e'),
      ],
      opts,
    );
    expect(['a', 'b', 'c', 'd', 'e'].map((key) => results.get(key)?.status)).toEqual([
      'live',
      'invalid',
      'live',
      'unknown',
      'unknown',
    ]);
    expect(results.get('e')?.reason).toMatch(/no account SID/);
    const sent = fake.seen.slice(before);
    expect(sent.map((req) => req.path).sort()).toEqual([
      `/2010-04-01/Accounts/${SID}.json`,
      `/2010-04-01/Accounts/${SID}.json`,
      '/v3/domains?limit=1',
      '/v3/domains?limit=1',
    ]);
    rmSync(repoRoot, { recursive: true, force: true });
  });
});

describe('Slack classifier (property)', () => {
  it('never calls a token live unless Slack said ok:true, and never throws on any body', () => {
    const slack = VERIFIERS.get('slack-bot-token');
    if (!slack?.classify) throw new Error('slack verifier has its own classifier');
    const classify = slack.classify;
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.oneof(fc.string(), fc.json()), (status, body) => {
        const result = classify({ status, body });
        if (result.status === 'live') expect(status === 200 && JSON.parse(body).ok === true).toBe(true);
      }),
    );
    expect(classify({ status: 200, body: '{"ok":true}' }).status).toBe('live');
    expect(classify({ status: 200, body: '{"ok":false,"error":"token_revoked"}' }).status).toBe('invalid');
    expect(classify({ status: 200, body: '{"ok":false,"error":"ratelimited"}' }).status).toBe('unknown');
  });
});
