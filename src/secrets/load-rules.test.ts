import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadScanner } from './load-rules.js';
import { secretsOptionsSchema } from './options.js';
import { builtinRules } from './rules/index.js';
import { base64Of, fakePem } from './sample-tokens.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-load-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A PEM key with the header `openssl … -aes256` writes: only usable with its passphrase. */
const encryptedPem = fakePem('RSA PRIVATE KEY', 'load-rules-encrypted')
  .split('\n')
  .flatMap((line, index) => (index === 0 ? [line, 'Proc-Type: 4,ENCRYPTED', 'DEK-Info: AES-128-CBC,00FF', ''] : [line]))
  .join('\n');
const plainPem = fakePem('RSA PRIVATE KEY', 'load-rules-plain');
const pkcs8Encrypted = fakePem('ENCRYPTED PRIVATE KEY', 'load-rules-pkcs8');

async function idsFound(encryptedKeys: 'report' | 'ignore' | undefined, text: string): Promise<string[]> {
  const options = secretsOptionsSchema().parse(encryptedKeys ? { encryptedKeys } : {});
  const { scanner } = await loadScanner(root, options);
  return scanner.scanText(text, { path: 'deploy/keys.txt' }).map((item) => item.rule.id);
}

describe('secrets.encryptedKeys', () => {
  test('defaults to report: a passphrase-protected key is a medium finding', async () => {
    expect(secretsOptionsSchema().parse({}).encryptedKeys).toBe('report');
    expect(await idsFound(undefined, encryptedPem)).toEqual(['private-key-rsa-passphrase']);
    expect(await idsFound('report', pkcs8Encrypted)).toEqual(['private-key-encrypted']);
    expect(await idsFound('report', base64Of(encryptedPem))).toEqual(['private-key-base64-passphrase']);
  });

  test('ignore drops passphrase-protected keys, in PEM, PKCS#8 and base64 form, and keeps plain ones', async () => {
    expect(await idsFound('ignore', encryptedPem)).toEqual([]);
    expect(await idsFound('ignore', pkcs8Encrypted)).toEqual([]);
    expect(await idsFound('ignore', base64Of(encryptedPem))).toEqual([]);
    expect(await idsFound('ignore', plainPem)).toEqual(['private-key-rsa']);
    expect(await idsFound('ignore', base64Of(plainPem))).toEqual(['private-key-base64']);
  });

  test('every rule marked passphrase-protected reports at medium', () => {
    const marked = builtinRules.filter((rule) => rule.passphraseProtected);
    expect(marked.map((rule) => rule.id).sort()).toEqual([
      'private-key-base64-passphrase',
      'private-key-dsa-passphrase',
      'private-key-ec-passphrase',
      'private-key-encrypted',
      'private-key-java-keystore',
      'private-key-openssh-passphrase',
      'private-key-other-passphrase',
      'private-key-pkcs12-passphrase',
      'private-key-putty-passphrase',
      'private-key-rsa-passphrase',
      'private-key-ssh2-passphrase',
    ]);
    for (const rule of marked) expect(rule.severity).toBe('medium');
  });

  test('a value other than report or ignore is refused, naming what is valid', () => {
    const result = secretsOptionsSchema().safeParse({ encryptedKeys: 'drop' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('report');
  });
});
