import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeChecksumToken, fakeToken } from '../../src/validators/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * Canary secrets: planted in a changed file, printed by a failing check, and echoed by a hook. Then every channel a
 * run writes to (stdout in each format, stderr, the run folder: events, check logs, telemetry; state; `tollgate log`)
 * is searched for them. Only masked forms may appear.
 */
const canaries = {
  github: fakeChecksumToken('ghp_', 'canary-github'),
  npm: fakeChecksumToken('npm_', 'canary-npm'),
  aws: `AKIA${fakeToken('', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 'canary-aws')}`,
  dbPassword: `Pg${fakeToken('', 14, undefined, 'canary-db')}`,
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : statSync(path).isFile() ? [path] : [];
  });
}

describe('no secret leaves a run unmasked', () => {
  let repo: TempRepo;
  const outputs: string[] = [];

  beforeAll(async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': [
          'checks:',
          '  - name: leaky test',
          `    run: "echo connecting with token ${canaries.github}; echo postgres://app:${canaries.dbPassword}@db.internal:5432/shop; exit 1"`,
          'hooks:',
          '  postToolUse:',
          `    - run: "echo '{\\"additionalContext\\":\\"npm token ${canaries.npm}\\"}'"`,
          '',
        ].join('\n'),
        'README.md': '# shop\n',
      },
    });
    await repo.write(
      'src/config.ts',
      `export const awsKeyId = '${canaries.aws}';\nexport const npmToken = "${canaries.npm}";\n`,
    );
    for (const format of ['markdown', 'json', 'sarif']) {
      const result = await runCli(['run', '--format', format], { cwd: repo.root, env: repo.env });
      expect(result.exitCode).toBe(1);
      outputs.push(result.stdout, result.stderr);
    }
    for (const args of [['log'], ['log', '--json'], ['log', '--list']]) {
      const result = await runCli(args, { cwd: repo.root, env: repo.env });
      outputs.push(result.stdout, result.stderr);
    }
    for (const file of filesUnder(join(repo.root, '.tollgate'))) outputs.push(readFileSync(file, 'utf8'));
  }, 120_000);
  afterAll(() => repo.cleanup());

  test('the run found the planted secrets and the failing check', () => {
    const text = outputs.join('\n');
    expect(text).toContain('check "leaky test" failed');
    expect(text).toMatch(/secrets/);
  });

  test.each(Object.entries(canaries))('the %s canary appears nowhere in full', (_name, secret) => {
    for (const output of outputs) expect(output).not.toContain(secret);
  });

  test('the secrets validator reports them masked', () => {
    const text = outputs.join('\n');
    expect(text).toContain(`${canaries.github.slice(0, 4)}…`);
  });
});
