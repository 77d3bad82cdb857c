import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { keyStoreSample } from '../../src/secrets/rules/private-key.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * Binary key stores in a change, through the built CLI: the gate (`run`) and `scan --history` report a store that holds
 * a key, on its first line and masked, and pass over a trust store of certificates.
 */
const CONFIG = 'validation:\n  static_analysis: { enabled: false }\n  code_review: { enabled: false }\n';

interface Finding {
  ruleId: string;
  path: string;
  line: number;
  severity: string;
}

let repo: TempRepo;
let base: string;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'README.md': '# app\n' } });
  base = (await repo.git('rev-parse', 'HEAD')).trim();
  await repo.git('checkout', '--quiet', '-b', 'feature');
  await repo.write('android/release.jks', keyStoreSample('jks', 'key'));
  await repo.write('certs/client.p12', keyStoreSample('pkcs12', 'plain-key'));
  await repo.write('certs/truststore.jks', keyStoreSample('jks', 'certificate'));
  await repo.commit('signing material');
}, 60_000);
afterAll(async () => {
  await repo?.cleanup();
});

const summary = (findings: Finding[]) =>
  findings.map(({ ruleId, path, line, severity }) => `${path}:${line} ${ruleId} ${severity}`).sort();
const EXPECTED = [
  'android/release.jks:1 private-key-java-keystore medium',
  'certs/client.p12:1 private-key-pkcs12 critical',
];
const storeText = keyStoreSample('pkcs12', 'plain-key').toString('base64').slice(0, 24);

describe('key stores in a change', () => {
  test('`run` fails on the stores that hold keys, never on the trust store, and prints no store bytes', async () => {
    const result = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as { tools: Array<{ name: string; findings: Finding[] }> };
    const secrets = report.tools.find((tool) => tool.name === 'secrets')!;
    expect(summary(secrets.findings)).toEqual(EXPECTED);
    expect(result.stdout).not.toContain(storeText);
  }, 120_000);

  test('`scan --history` finds the same stores in the commit', async () => {
    const result = await runCli(['scan', '--history', `${base}..HEAD`, '--format', 'json'], {
      cwd: repo.root,
      env: repo.env,
    });
    expect(result.exitCode, result.stderr).toBe(1);
    expect(summary((JSON.parse(result.stdout) as { findings: Finding[] }).findings)).toEqual(EXPECTED);
    expect(result.stdout).not.toContain(storeText);
  }, 120_000);
});
