import { describe, expect, test } from 'vitest';
import { fakeToken } from '../sample-tokens.js';
import { SecretScanner } from '../scanner.js';
import { builtinRules } from './index.js';

const scanner = new SecretScanner(builtinRules);

describe('Vault tokens only as whole tokens', () => {
  test('a sentence may end after the token; a property path is not a token', () => {
    const vault = fakeToken('hvs.', 95);
    const ids = (text: string) => scanner.scanText(text, { path: 'notes.md' }).map((item) => item.rule.id);
    expect(ids(`The token is ${vault}.\n`)).toContain('hashicorp-vault-service-token');
    expect(ids(`value = config.${vault}.name\n`)).not.toContain('hashicorp-vault-service-token');
  });
});
