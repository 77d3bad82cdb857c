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

describe('key files in the shapes they are committed in', () => {
  const openssh = fakePem('OPENSSH PRIVATE KEY', 'variants-openssh');
  const indent = (block: string, by: string) =>
    block
      .split('\n')
      .map((line) => by + line)
      .join('\n');
  const ppk = (version: 2 | 3, eol: string) =>
    [
      `PuTTY-User-Key-File-${version}: ssh-ed25519`,
      'Encryption: none',
      'Comment: deploy@ci',
      'Public-Lines: 2',
      'AAAAC3NzaC1lZDI1NTE5AAAAIOq4',
      'Vd0f',
      ...(version === 3 ? ['Key-Derivation: Argon2id'] : []),
      'Private-Lines: 1',
      fakePem('X', `variants-ppk${version}`).split('\n')[1]!,
      'Private-MAC: 8f3a',
      '',
    ].join(eol);

  test.each([
    ['OpenSSH key with CRLF line ends', openssh.replace(/\n/g, '\r\n'), 'id_ed25519', 'private-key-openssh critical'],
    [
      'OpenSSH key indented in a YAML block',
      `deploy:\n  key: |\n${indent(openssh, '    ')}\n`,
      'values.yaml',
      'private-key-openssh critical',
    ],
    [
      'OpenSSH key in a JSON string',
      `${JSON.stringify({ sshKey: openssh })}\n`,
      'config.json',
      'private-key-openssh critical',
    ],
    [
      'OpenSSH key in a JSON string, CRLF',
      `${JSON.stringify({ sshKey: openssh.replace(/\n/g, '\r\n') })}\n`,
      'config.json',
      'private-key-openssh critical',
    ],
    [
      'encrypted PKCS#8 key in YAML',
      `tls:\n  key: |\n${indent(fakePem('ENCRYPTED PRIVATE KEY', 'variants-enc'), '    ')}\n`,
      'values.yaml',
      'private-key-encrypted medium',
    ],
    ['bare RSA KEY label', fakePem('RSA KEY', 'variants-rsa-key'), 'legacy.key', 'private-key-other critical'],
    [
      'ED25519 PRIVATE KEY label, indented',
      `key: |\n${indent(fakePem('ED25519 PRIVATE KEY', 'variants-ed'), '  ')}\n`,
      'k.yaml',
      'private-key-other critical',
    ],
    ['PuTTY v2 key, CRLF', ppk(2, '\r\n'), 'deploy.ppk', 'private-key-putty critical'],
    ['PuTTY v3 key', ppk(3, '\n'), 'deploy.ppk', 'private-key-putty critical'],
  ])('%s', (_name, text, path, expected) => {
    expect(found(text, path)).toEqual([expected]);
  });

  test('ssh.com (SSH2) keys: the cipher inside decides, whatever the label says', () => {
    const ssh2 = (cipher: string) => {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(0x3f6ff9eb, 0);
      const str = (text: string) => Buffer.concat([Buffer.from([0, 0, 0, text.length]), Buffer.from(text)]);
      const body = Buffer.concat([head, str('if-modn{sign{rsa-pkcs1-sha1}}'), str(cipher), Buffer.alloc(300, 7)]);
      const label = 'SSH2 ENCRYPTED PRIVATE KEY';
      return `---- BEGIN ${label} ----\nComment: "ci"\n${body
        .toString('base64')
        .match(/.{1,70}/g)!
        .join('\n')}\n---- END ${label} ----\n`;
    };
    expect(found(ssh2('none'), 'id_ssh2')).toEqual(['private-key-ssh2 critical']);
    expect(found(ssh2('3des-cbc'), 'id_ssh2')).toEqual(['private-key-ssh2-passphrase medium']);
  });

  test.each([
    ['a certificate in YAML', `ca: |\n${indent(fakePem('CERTIFICATE', 'variants-cert'), '  ')}\n`, 'ca.yaml'],
    ['an RSA public key', fakePem('RSA PUBLIC KEY', 'variants-pub'), 'id_rsa.pub.pem'],
    [
      'a PEM header in docs',
      'Paste the key, starting at -----BEGIN ED25519 PRIVATE KEY-----, into the field.\n',
      'README.md',
    ],
    [
      'PuTTY header only, in docs',
      'The file starts with PuTTY-User-Key-File-3: ssh-ed25519 and is text.\n',
      'docs/keys.md',
    ],
  ])('%s: nothing', (_name, text, path) => {
    expect(found(text, path)).toEqual([]);
  });
});
