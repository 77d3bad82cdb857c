import { describe, expect, test } from 'vitest';
import { kubernetesSecretValues } from './kubernetes-secret.js';
import { builtinRules } from './rules/index.js';
import { base64Of, fakeHumanPassword, fakeToken } from './sample-tokens.js';
import { SecretScanner } from './scanner.js';

const scanner = new SecretScanner(builtinRules);
const token = fakeToken('gsk_', 52);
const password = fakeHumanPassword('k8s');

function manifest(kind: string, data: Record<string, string>, extra = ''): string {
  const lines = Object.entries(data).map(([key, value]) => `  ${key}: ${value}`);
  return `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: app\n${extra}type: Opaque\ndata:\n${lines.join('\n')}\n`;
}

describe('Kubernetes Secret data values', () => {
  test('a provider token and a password under data: are found at the encoded value', () => {
    const text = manifest('Secret', { GROQ_API_KEY: base64Of(token), DB_PASSWORD: `"${base64Of(password)}"` });
    const found = scanner.scanText(text, { path: 'deploy/secret.yaml' });
    const groq = found.find((item) => item.rule.id === 'groq-api-key');
    expect(groq?.line).toBe(7);
    expect(groq?.column).toBe(17);
    expect(text.slice(groq!.start, groq!.end)).toBe(base64Of(token));
    const db = found.find((item) => item.line === 8);
    expect(db?.secret).toBe(password);
    expect(text.slice(db!.start, db!.end)).toBe(base64Of(password));
  });

  test('every document of a multi-document file is read; only Secrets are decoded', () => {
    const configMap = manifest('ConfigMap', { GROQ_API_KEY: base64Of(token) });
    const secret = manifest('Secret', { GROQ_API_KEY: base64Of(token) });
    const found = scanner.scanText(`${configMap}---\n${secret}`, { path: 'k8s/all.yml' });
    expect(found.filter((item) => item.rule.id === 'groq-api-key').map((item) => item.line)).toEqual([15]);
  });

  test('decoys: invalid base64, placeholders, binary and non-YAML files yield nothing', () => {
    const text = manifest('Secret', {
      notBase64: 'not*base64!',
      wrongLength: base64Of(token).slice(0, -1),
      DB_PASSWORD: base64Of('changeme'),
      API_TOKEN: base64Of('$' + '{API_TOKEN}'),
      keystore: Buffer.from([0, 1, 2, 255, 254, 7, 8, 9]).toString('base64'),
    });
    expect(scanner.scanText(text, { path: 'secret.yaml' })).toEqual([]);
    const secret = manifest('Secret', { GROQ_API_KEY: base64Of(token) });
    const notYaml = scanner.scanText(secret, { path: 'notes.txt' });
    expect(notYaml.filter((item) => item.rule.id === 'groq-api-key')).toEqual([]);
  });

  test('stringData needs no decoding and multi-line values are scanned as files', () => {
    const pem = `line one\n${fakeToken('gsk_', 52)}\n`;
    const values = kubernetesSecretValues(manifest('Secret', { 'config.txt': base64Of(pem) }));
    expect(values.map((value) => value.decoded)).toEqual([pem]);
    const plain = `apiVersion: v1\nkind: Secret\nstringData:\n  GROQ_API_KEY: ${token}\n`;
    const found = scanner.scanText(plain, { path: 'secret.yaml' });
    expect(found.map((item) => item.rule.id)).toEqual(['groq-api-key']);
  });

  test('broken YAML is not an error', () => {
    expect(kubernetesSecretValues('kind: Secret\ndata:\n  a: [unclosed\n')).toEqual([]);
  });
});
