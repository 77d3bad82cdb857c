import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { BASE64, fakeChecksumToken, fakeToken } from '../../src/secrets/sample-tokens.js';
import { runScanCommand, type ScanCommandFlags } from '../../src/validators/secrets/scan-command.js';
import {
  type FakeProvider,
  makeTestCa,
  removeTestCa,
  startFakeProvider,
  type TestCa,
} from '../fakes/https-provider/fake-provider.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

const livePat = fakeChecksumToken('ghp_', 'verify-live');
const revokedPat = fakeChecksumToken('ghp_', 'verify-revoked');
const brokenNpm = fakeChecksumToken('npm_', 'verify-npm');
const awsKeyId = fakeToken('AKIA', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');
const awsSecret = fakeToken('', 40, BASE64);
const twilioSid = `AC${fakeToken('', 32, '0123456789abcdef')}`;
const twilioToken = fakeToken('', 32, '0123456789abcdef');

let ca: TestCa;
let fake: FakeProvider;
let repo: TempRepo | undefined;

beforeAll(async () => {
  ca = makeTestCa();
  fake = await startFakeProvider(ca, (req) => {
    const auth = req.headers.authorization;
    if (req.path.startsWith('/?Action=GetCallerIdentity'))
      return String(auth).includes(`Credential=${awsKeyId}/`) ? { status: 200 } : { status: 403 };
    if (req.method === 'GET' && req.path === '/user' && auth === `Bearer ${livePat}`)
      return { status: 200, body: '{"login":"octocat"}' };
    if (req.method === 'GET' && req.path === '/-/whoami' && auth === `Bearer ${brokenNpm}`) return { status: 500 };
    if (req.path === `/2010-04-01/Accounts/${twilioSid}.json`)
      return auth === `Basic ${Buffer.from(`${twilioSid}:${twilioToken}`).toString('base64')}`
        ? { status: 200 }
        : { status: 401 };
    return { status: 401 };
  });
});
afterAll(async () => {
  await fake.close();
  removeTestCa(ca);
});
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const config = (extra = '') => `secrets:\n  verifyEndpoints:\n    github: ${fake.base}\n${extra}`;

/** Verification settings are the user's: the config lives outside the repository, named by TOLLGATE_CONFIG. */
async function makeRepo(configText: string) {
  repo = await createTempRepo({
    files: {
      'a.env': `NPM_TOKEN=${brokenNpm}\n`,
      'b.ts': `const old = "${revokedPat}";\nconst gh = "${livePat}";\n`,
    },
  });
  const userConfig = join(repo.home, 'tollgate.yaml');
  await writeFile(userConfig, configText);
  repo.env = { ...repo.env, TOLLGATE_CONFIG: userConfig };
  return repo;
}

async function scanInProcess(root: string, env: NodeJS.ProcessEnv, partial: Partial<ScanCommandFlags>) {
  let stdout = '';
  let stderr = '';
  let requests = 0;
  const code = await runScanCommand(
    { paths: ['.'], staged: false, all: false, format: 'json', baselineWrite: false, verify: true, ...partial },
    {
      cwd: root,
      env,
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      verifyTransport: {
        ca: ca.ca,
        hostOverrides: { npm: fake.base, aws: fake.base, twilio: fake.base },
        onRequest: () => {
          requests++;
        },
      },
    },
  );
  return { code, stdout, stderr, requests };
}

describe('tollgate scan --verify', () => {
  test('marks each finding live/invalid/unknown, live first and critical, cached, never printing a token', async () => {
    const { root, env } = await makeRepo(config());
    const first = await scanInProcess(root, env, {});
    expect(first.code).toBe(1);
    const json = JSON.parse(first.stdout);
    expect(json.findings.map((f: { verification: string }) => f.verification)).toEqual(['live', 'unknown', 'invalid']);
    expect(json.findings[0]).toMatchObject({ ruleId: 'github-pat', severity: 'critical', line: 2 });
    expect(json.findings[1]).toMatchObject({ ruleId: 'npm-access-token', verificationReason: 'HTTP 500' });
    expect(first.requests).toBe(3);
    const cache = readFileSync(join(root, '.tollgate', 'verify-cache.json'), 'utf8');
    for (const token of [livePat, revokedPat, brokenNpm]) {
      expect(first.stdout + first.stderr + cache).not.toContain(token);
    }
    // Second run: GitHub answers come from the cache; only the unknown npm one is asked again.
    const second = await scanInProcess(root, env, { format: 'markdown' });
    expect(second.requests).toBe(1);
    expect(second.stdout).toContain('| Verification |');
    expect(second.stdout).toContain('**live**');
    const sarif = await scanInProcess(root, env, { format: 'sarif' });
    expect(sarif.stdout).toContain('"verification": "live"');
  });

  test('pairs an AWS secret key with the access key ID in the same file and signs for STS', async () => {
    const { root, env } = await makeRepo(config());
    await writeFile(join(root, 'aws.env'), `AWS_ACCESS_KEY_ID=${awsKeyId}\nAWS_SECRET_ACCESS_KEY=${awsSecret}\n`);
    const result = await scanInProcess(root, env, { paths: ['aws.env'] });
    const json = JSON.parse(result.stdout);
    expect(json.findings[0]).toMatchObject({ ruleId: 'aws-secret-access-key', verification: 'live' });
    expect(result.stdout).not.toContain(awsSecret);
    expect(JSON.stringify(fake.seen)).not.toContain(awsSecret);
  });

  test('pairs a Twilio auth token with the nearest account SID in the same file (the SID is no finding)', async () => {
    const { root, env } = await makeRepo(config());
    await writeFile(
      join(root, 'twilio.py'),
      `TWILIO_ACCOUNT_SID = "${twilioSid}"\nTWILIO_AUTH_TOKEN = "${twilioToken}"\n`,
    );
    const result = await scanInProcess(root, env, { paths: ['twilio.py'] });
    const json = JSON.parse(result.stdout);
    expect(json.findings).toHaveLength(1);
    expect(json.findings[0]).toMatchObject({ ruleId: 'twilio-auth-token', verification: 'live', severity: 'critical' });
    expect(result.stdout).not.toContain(twilioToken);
  });

  test('permissions.network deny sends nothing and says why', async () => {
    // Turned on by config rather than the flag.
    const { root, env } = await makeRepo(`${config('  verify: true\n')}permissions:\n  network: deny\n`);
    const before = fake.seen.length;
    const result = await scanInProcess(root, env, { verify: false });
    expect(result.requests).toBe(0);
    expect(fake.seen.length).toBe(before);
    expect(JSON.parse(result.stdout).notes).toContain('verification off: permissions.network is deny');
  });

  test('secrets.verifyEndpoints must be https', async () => {
    const { root, env } = await makeRepo('secrets:\n  verifyEndpoints:\n    github: http://127.0.0.1:1\n');
    await expect(scanInProcess(root, env, {})).rejects.toThrow(/verifyEndpoints.*https/);
  });

  test('the built CLI with --verify verifies against the configured GitHub endpoint with NODE_EXTRA_CA_CERTS', async () => {
    const { root, env } = await makeRepo(config());
    const result = await runCli(['scan', 'b.ts', '--verify', '--format', 'json'], {
      cwd: root,
      env: { ...env, NODE_EXTRA_CA_CERTS: ca.caFile },
    });
    expect(result.exitCode).toBe(1);
    const json = JSON.parse(result.stdout);
    expect(json.findings.map((f: { verification: string }) => f.verification)).toEqual(['live', 'invalid']);
    expect(result.stdout + result.stderr).not.toContain(livePat);
  });

  test('the gate (tollgate run) verifies too when secrets.verify is on: live is critical; deny sends nothing', async () => {
    const { root, env } = await makeRepo(config('  verify: true\n'));
    await writeFile(join(root, 'deploy.ts'), `export const token = "${livePat}";\n`);
    const runEnv = { ...env, NODE_EXTRA_CA_CERTS: ca.caFile };
    const before = fake.seen.length;
    const gate = await runCli(['run', '--only', 'secrets', '--format', 'json'], { cwd: root, env: runEnv });
    expect(gate.exitCode, gate.stderr).toBe(1);
    const secrets = JSON.parse(gate.stdout).tools.find((tool: { name: string }) => tool.name === 'secrets');
    const live = secrets.findings.find((f: { path: string }) => f.path === 'deploy.ts');
    expect(live).toMatchObject({ severity: 'critical' });
    expect(live.body).toContain('LIVE');
    expect(fake.seen.length).toBeGreaterThan(before);
    expect(gate.stdout + gate.stderr).not.toContain(livePat);

    await writeFile(env.TOLLGATE_CONFIG!, `${config('  verify: true\n')}permissions:\n  network: deny\n`);
    const quiet = fake.seen.length;
    const denied = await runCli(['run', '--only', 'secrets', '--format', 'json'], { cwd: root, env: runEnv });
    expect(denied.exitCode).toBe(1);
    expect(fake.seen.length).toBe(quiet);
    const tool = JSON.parse(denied.stdout).tools.find((t: { name: string }) => t.name === 'secrets');
    expect(tool.findings.find((f: { path: string }) => f.path === 'deploy.ts').body).toContain('Not verified');
  });

  test("a repository's config cannot turn verification on or name an endpoint: exit 2, nothing sent", async () => {
    const listener = createServer((_req, res) => {
      received++;
      res.end('{}');
    });
    let received = 0;
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const port = (listener.address() as AddressInfo).port;
    try {
      repo = await createTempRepo({
        files: {
          'tollgate.config.yaml': `secrets:\n  verify: true\n  verifyEndpoints:\n    github: https://127.0.0.1:${port}\n`,
          'b.ts': `const gh = "${livePat}";\n`,
        },
      });
      const scanned = await runCli(['scan', 'b.ts', '--format', 'json'], { cwd: repo.root, env: repo.env });
      expect(scanned.exitCode).toBe(2);
      expect(scanned.stderr).toMatch(
        /tollgate\.config\.yaml: secrets\.verify cannot be set in the repository's config/,
      );
      const verified = await runCli(['scan', 'b.ts', '--verify'], { cwd: repo.root, env: repo.env });
      expect(verified.exitCode).toBe(2);
      const gate = await runCli(['run', '--only', 'secrets'], { cwd: repo.root, env: repo.env });
      expect(gate.exitCode).toBe(2);
      expect(received).toBe(0);
      // `verify: false` in a repository says only what the default says: allowed.
      // (The config is policy: the edit counts once it is in the base, here a commit on main.)
      await repo.write('tollgate.config.yaml', 'secrets:\n  verify: false\n');
      await repo.commit('verify: false');
      expect((await runCli(['scan', 'b.ts'], { cwd: repo.root, env: repo.env })).exitCode).toBe(1);
    } finally {
      listener.close();
    }
  });

  test('TOLLGATE_VERIFY=1 turns verification on from the environment', async () => {
    const { root, env } = await makeRepo(config());
    const result = await scanInProcess(root, { ...env, TOLLGATE_VERIFY: '1' }, { verify: false });
    expect(result.requests).toBeGreaterThan(0);
  });
});
