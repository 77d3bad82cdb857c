import { describe, expect, test } from 'vitest';
import { isFixture } from '../fixtures.js';
import { fakeToken } from '../sample-tokens.js';
import { SecretScanner } from '../scanner.js';
import { builtinRules } from './index.js';

const scanner = new SecretScanner(builtinRules);
const ids = (text: string, path: string) => scanner.scanText(text, { path }).map((item) => item.rule.id);

const CRYPT = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const sha512 = `$6$${fakeToken('', 16, CRYPT, 'shadow-salt')}$${fakeToken('', 85, CRYPT, 'shadow-digest')}0`;

describe('password hashes', () => {
  test('a shadow entry and an Ansible user password are found', () => {
    expect(ids(`deploy:${sha512}:19800:0:99999:7:::\n`, 'backup/etc/shadow')).toEqual(['password-hash-sha512crypt']);
    expect(ids(`- user:\n    name: deploy\n    password: "${sha512}"\n`, 'playbooks/users.yml')).toEqual([
      'password-hash-sha512crypt',
    ]);
  });

  test('a result shown in a comment is documentation, not a stored hash', () => {
    expect(ids(`    # pwdhash => "${sha512}"\n`, 'plugins/filter/password_hash.yml')).toEqual([]);
    expect(ids(`  #   user.password_digest # => "${sha512}"\n`, 'lib/secure_password.rb')).toEqual([]);
  });

  test('a hash one character off the digest length or tail is not reported', () => {
    expect(ids(`password: "${sha512.slice(0, -1)}"\n`, 'playbooks/users.yml')).toEqual([]);
    expect(ids(`password: "${sha512.slice(0, -1)}z"\n`, 'playbooks/users.yml')).toEqual([]);
  });

  test("a test user's hash in a test path is a fixture; elsewhere it is not", () => {
    const input = { ruleId: 'password-hash-sha512crypt', generic: false, secret: sha512 };
    expect(isFixture({ ...input, path: 'test/integration/users.yml' })).toBe(true);
    expect(isFixture({ ...input, path: 'playbooks/users.yml' })).toBe(false);
  });
});
