import { afterEach, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * A first run reads the changed files while git writes their patches (several slices of look-ups for this many
 * files): every changed file's content still reaches the secret scan, and a file over the size cap is left to the
 * scan's own reading of large files.
 */
let repo: TempRepo;
afterEach(() => repo.cleanup());

const token = fakeChecksumToken('ghp_', 'first-run-reads');

test('every changed file is scanned from what was read early; one over the cap is still read whole by the secret scan', async () => {
  const files: Record<string, string> = {
    'tollgate.config.yaml': 'validation:\n  maxFileSize: 2000\n  advisories: { enabled: false }\n',
  };
  for (let i = 0; i < 600; i++) files[`src/f${i}.js`] = `export const v${i} = ${i};\n`;
  repo = await createTempRepo({ files });
  for (let i = 0; i < 600; i++) {
    const secret = i % 250 === 5 ? `token = "${token}"\n` : '';
    await repo.write(`src/f${i}.js`, `export const v${i} = ${i + 1};\n${secret}`);
  }
  await repo.write('src/big.js', `${'// filler line\n'.repeat(200)}token = "${token}"\n`);
  const result = await runCli(['run', '--only', 'secrets', '--format', 'json'], { cwd: repo.root, env: repo.env });
  expect(result.stdout).not.toContain(token);
  const report = JSON.parse(result.stdout);
  const secrets = report.tools.find((tool: { name: string }) => tool.name === 'secrets');
  const paths = secrets.findings.map((finding: { path: string }) => finding.path).sort();
  expect(paths).toEqual(['src/big.js', 'src/f255.js', 'src/f5.js', 'src/f505.js']);
  expect(report.skippedFiles).toEqual([expect.objectContaining({ path: 'src/big.js', reason: 'too_large' })]);
  expect(result.exitCode).toBe(1);
}, 60_000);
