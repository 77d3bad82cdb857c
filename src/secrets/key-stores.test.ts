import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { keyStoreKey, keyStoreKind, keyStoreText } from './key-stores.js';
import { builtinRules } from './rules/index.js';
import { keyStoreSample } from './rules/private-key.js';
import { randomString } from './sample-tokens.js';
import { type ScanTarget, scanTargets } from './scan-targets.js';
import { SecretScanner } from './scanner.js';

const scanner = new SecretScanner(builtinRules);

async function findings(path: string, bytes: Buffer, extra: Partial<ScanTarget> = {}) {
  const outcome = await scanTargets([{ path, read: async () => bytes, ...extra }], { scanner });
  return outcome.findings.map((finding) => `${finding.path}:${finding.line} ${finding.ruleId} ${finding.severity}`);
}

describe('binary key stores', () => {
  test.each([
    ['deploy/signing.p12', keyStoreSample('pkcs12', 'key'), 'private-key-pkcs12-passphrase medium'],
    ['certs/server.pfx', keyStoreSample('pkcs12', 'secret'), 'private-key-pkcs12-passphrase medium'],
    ['certs/nodes.pfx', keyStoreSample('pkcs12', 'plain-key'), 'private-key-pkcs12 critical'],
    ['android/release.jks', keyStoreSample('jks', 'key'), 'private-key-java-keystore medium'],
    ['conf/keystore.jceks', keyStoreSample('jceks', 'key'), 'private-key-java-keystore medium'],
    ['conf/secrets.jceks', keyStoreSample('jceks', 'secret'), 'private-key-java-keystore medium'],
    // Known by its bytes, not its name.
    ['assets/blob.bin', keyStoreSample('jks', 'key'), 'private-key-java-keystore medium'],
  ])('%s with a key is reported once, on its first line', async (path, bytes, rule) => {
    expect(await findings(path, bytes)).toEqual([`${path}:1 ${rule}`]);
  });

  test.each([
    ['trust stores of certificates', 'certs/truststore.p12', keyStoreSample('pkcs12', 'certificate')],
    ['a JKS trust store', 'certs/cacerts.jks', keyStoreSample('jks', 'certificate')],
    [
      'other binary content named like a store',
      'fake.p12',
      Buffer.from(randomString(2000, 'abc\0\x01\x02', 'not-a-store')),
    ],
  ])('%s: nothing', async (_name, path, bytes) => {
    expect(await findings(path, bytes)).toEqual([]);
  });

  test('a store changed in a commit is reported on its first changed line, which a history scan keeps', async () => {
    const bytes = keyStoreSample('jks', 'key');
    expect(await findings('release.jks', bytes, { onlyLines: [{ start: 3, end: 4 }] })).toEqual([
      'release.jks:3 private-key-java-keystore medium',
    ]);
  });

  test('the finding shows the store masked, never its bytes', async () => {
    const outcome = await scanTargets([{ path: 'a.p12', read: async () => keyStoreSample('pkcs12', 'key') }], {
      scanner,
    });
    const text = JSON.stringify(outcome.findings);
    expect(outcome.findings[0]!.masked).toMatch(/^.{1,4}…$/);
    expect(text).not.toContain(keyStoreSample('pkcs12', 'key').toString('base64').slice(0, 40));
  });

  test('structure checks: kinds, keys, and the text handed to the rules', () => {
    expect(keyStoreKind(keyStoreSample('pkcs12', 'key'))).toBe('pkcs12');
    expect(keyStoreKind(keyStoreSample('jks', 'certificate'))).toBe('jks');
    expect(keyStoreKind(keyStoreSample('jceks', 'secret'))).toBe('jceks');
    expect(keyStoreKind(Buffer.from('-----BEGIN CERTIFICATE-----\n'))).toBeNull();
    expect(keyStoreKey(keyStoreSample('jks', 'certificate'))).toBeNull();
    expect(keyStoreKey(keyStoreSample('jceks', 'secret'))).toBe('sealed');
    expect(keyStoreKey(keyStoreSample('pkcs12', 'plain-key'))).toBe('plain');
    // A store cut before its first entry's tag holds no key that can be seen (the walk never reads past the end).
    expect(keyStoreKey(keyStoreSample('jks', 'key').subarray(0, 14))).toBeNull();
    expect(keyStoreText(Buffer.from('plain text'))).toBeNull();
  });

  test('a store is told by its first byte first: any other first byte is no store, whatever follows', () => {
    const samples = [keyStoreSample('pkcs12', 'key'), keyStoreSample('jks', 'key'), keyStoreSample('jceks', 'secret')];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.nat({ max: 2 }), (first, which) => {
        const bytes = Buffer.from(samples[which]!);
        const own = bytes[0];
        bytes[0] = first;
        if (first === own) expect(keyStoreKind(bytes)).not.toBeNull();
        if (first !== 0x30 && first !== 0xfe && first !== 0xce) expect(keyStoreKind(bytes)).toBeNull();
      }),
    );
  });
});

/** Stores written by the real tools, when this machine has them (OpenSSL, a JDK's keytool). */
const has = (tool: string, ...args: string[]) => spawnSync(tool, args, { stdio: 'ignore' }).status === 0;
/** On PATH, without starting it: asking keytool for its help is a JVM start (0.4 s of CPU) before any test runs. */
const onPath = (tool: string) =>
  spawnSync('sh', ['-c', 'command -v "$1"', 'sh', tool], { stdio: 'ignore' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'key-stores-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('stores written by the real tools', () => {
  test.skipIf(!has('openssl', 'version'))('openssl pkcs12: a key store is reported, a trust store is not', async () => {
    const run = (...args: string[]) => expect(spawnSync('openssl', args, { cwd: dir }).status).toBe(0);
    run('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'k.pem');
    run('req', '-x509', '-key', 'k.pem', '-out', 'c.pem', '-days', '1', '-subj', '/CN=tollgate-test');
    run('pkcs12', '-export', '-inkey', 'k.pem', '-in', 'c.pem', '-out', 'store.p12', '-passout', 'pass:changeit');
    run('pkcs12', '-export', '-nokeys', '-in', 'c.pem', '-out', 'trust.p12', '-passout', 'pass:changeit');
    expect(await findings('store.p12', readFileSync(join(dir, 'store.p12')))).toEqual([
      'store.p12:1 private-key-pkcs12-passphrase medium',
    ]);
    run(
      'pkcs12',
      '-export',
      '-inkey',
      'k.pem',
      '-in',
      'c.pem',
      '-out',
      'nodes.p12',
      '-passout',
      'pass:',
      '-keypbe',
      'NONE',
      '-certpbe',
      'NONE',
    );
    expect(await findings('nodes.p12', readFileSync(join(dir, 'nodes.p12')))).toEqual([
      'nodes.p12:1 private-key-pkcs12 critical',
    ]);
    expect(await findings('trust.p12', readFileSync(join(dir, 'trust.p12')))).toEqual([]);
  });

  test.skipIf(!onPath('keytool'))(
    'keytool: a JKS key store is reported',
    async () => {
      // One JVM start is seconds on a loaded machine: JKS only (JCEKS has the same layout, tested above).
      for (const type of ['JKS']) {
        const file = `store.${type.toLowerCase()}`;
        const args = ['-genkeypair', '-alias', 'a', '-keyalg', 'EC', '-dname', 'CN=tollgate-test', '-storetype', type];
        const passwords = ['-keystore', file, '-storepass', 'changeit', '-keypass', 'changeit'];
        expect(
          spawnSync('keytool', [...args, ...passwords], { cwd: dir, timeout: 60_000, stdio: 'ignore' }).status,
        ).toBe(0);
        expect(await findings(file, readFileSync(join(dir, file)))).toEqual([
          `${file}:1 private-key-java-keystore medium`,
        ]);
      }
    },
    120_000,
  );
});
