import { describe, expect, test } from 'vitest';
import { parseConfigText } from './load.js';
import { lookUpRegistries } from './registries.js';

/** A bad value says what is wrong; only a value under a credential-named key is kept out of the message. */
async function problemOf(text: string): Promise<string> {
  try {
    parseConfigText({ text, file: 'tollgate.config.yaml', env: {}, registries: await lookUpRegistries() });
  } catch (error) {
    const { message, details } = error as { message: string; details: string[] };
    return [message, ...details].join('\n');
  }
  throw new Error('expected a config error');
}

describe('config problems under the secrets section', () => {
  test('a bad regular expression in a rule says so', async () => {
    const problem = await problemOf('secrets:\n  rules:\n    - id: acme-key\n      pattern: "acme_(["\n');
    expect(problem).toMatch(/secrets\.rules\[0\]\.pattern/);
    expect(problem).not.toMatch(/invalid a string/);
    expect(problem).toMatch(/regular expression|pattern/i);
  });

  test('a bad enum value names the values allowed', async () => {
    const problem = await problemOf('secrets:\n  encryptedKeys: sometimes\n');
    expect(problem).toMatch(/expected one of "report", "ignore"/);
  });

  test('an empty keyword says what is expected', async () => {
    const problem = await problemOf(
      'secrets:\n  rules:\n    - id: acme-key\n      pattern: "acme_[a-z]{32}"\n      keywords: [""]\n',
    );
    expect(problem).not.toMatch(/invalid a string/);
    expect(problem).toMatch(/keywords/);
  });

  test('a value under a credential-named key is still not shown, but the problem is', async () => {
    const problem = await problemOf('checks:\n  - name: a\n    run: "true"\n    env:\n      API_TOKEN: [1, 2]\n');
    expect(problem).toMatch(/API_TOKEN: expected a string, got a list \(value not shown\)/);
  });
});
