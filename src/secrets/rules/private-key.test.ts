import { describe, expect, test } from 'vitest';
import { fakePem } from '../sample-tokens.js';
import { SecretScanner } from '../scanner.js';
import { builtinRules } from './index.js';
import { isPassphraseProtected } from './private-key.js';

const scanner = new SecretScanner(builtinRules);
const found = (text: string, path = 'key.pem') =>
  scanner.scanText(text, { path }).map((hit) => `${hit.rule.id} ${hit.rule.severity}`);

function opensshKey(cipher: string): string {
  const header = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    Buffer.from([0, 0, 0, cipher.length]),
    Buffer.from(cipher, 'latin1'),
  ]).toString('base64');
  const lines = fakePem('OPENSSH PRIVATE KEY', `openssh-${cipher}`).split('\n');
  return [lines[0], `${header}${lines[1]}`.slice(0, 70), ...lines.slice(2)].join('\n');
}

describe('passphrase-protected private keys', () => {
  test('a key with a passphrase is reported once, as medium, never as critical; a plain one stays critical', () => {
    const rsa = fakePem('RSA PRIVATE KEY', 'rsa').split('\n');
    const protectedRsa = [
      rsa[0],
      'Proc-Type: 4,ENCRYPTED',
      'DEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF',
      '',
      ...rsa.slice(1),
    ].join('\n');
    expect(found(rsa.join('\n'))).toEqual(['private-key-rsa critical']);
    expect(found(protectedRsa)).toEqual(['private-key-rsa-passphrase medium']);
    expect(found(JSON.stringify({ key: protectedRsa }), 'key.json')).toEqual(['private-key-rsa-passphrase medium']);
    expect(found(opensshKey('none'))).toEqual(['private-key-openssh critical']);
    expect(found(opensshKey('aes256-ctr'))).toEqual(['private-key-openssh-passphrase medium']);
  });

  test('PuTTY keys: Encryption none is critical, a cipher is medium', () => {
    const ppk = (encryption: string) =>
      `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: ${encryption}\nComment: ci\nPublic-Lines: 1\nAAAAB3NzaC1yc2E\nPrivate-Lines: 1\n${fakePem('X', `ppk-${encryption}`).split('\n')[1]}\n`;
    expect(found(ppk('none'), 'ci.ppk')).toEqual(['private-key-putty critical']);
    expect(found(ppk('aes256-cbc'), 'ci.ppk')).toEqual(['private-key-putty-passphrase medium']);
  });

  test('the OpenSSH cipher is read from the key body, also with escaped newlines', () => {
    expect(isPassphraseProtected(opensshKey('aes256-ctr').replace(/\n/g, '\\n'))).toBe(true);
    expect(isPassphraseProtected(opensshKey('none'))).toBe(false);
  });
});
