import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../test/support/git-repo.js';
import { runScanCommand } from '../validators/secrets/scan-command.js';
import { builtinRules } from './rules/index.js';
import { fakeChecksumToken } from './sample-tokens.js';
import { emptyScanOutcome } from './scan-targets.js';
import { SecretScanner } from './scanner.js';
import { scanFileInWindows } from './stream-file.js';

/** A file that could not be scanned is never a silent pass: too long a line, or too large a file, makes it incomplete. */
let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const token = fakeChecksumToken('ghp_', 'long-line');
const scanner = new SecretScanner(builtinRules);

describe('lines and files too large to hold', () => {
  test('a line longer than can be held is listed as too large, naming where it starts; a shorter one is scanned', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
    const absolute = join(repo.root, 'one-line.js');
    await writeFile(absolute, `const a = 1;\n${'var x=1;'.repeat(700_000)}token="${token}";\n`);
    const target = { path: 'one-line.js', absolute, read: async () => null };
    const held = emptyScanOutcome();
    expect(scanFileInWindows(target, { scanner }, held, 5_000_000)).toBe(true);
    expect(held.skipped).toEqual([
      { path: 'one-line.js', reason: 'too_large', detail: 'a line of over 5 MB (from byte 13) cannot be held to scan' },
    ]);
    const scanned = emptyScanOutcome();
    expect(scanFileInWindows(target, { scanner }, scanned)).toBe(true);
    expect(scanned.skipped).toEqual([]);
    expect(scanned.findings.map((finding) => finding.line)).toEqual([2]);
  });

  test('tollgate scan exits 1 and names a file it could not scan, even with no finding', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# x\n', 'ok.txt': 'nothing here\n' } });
    // Sparse: 300 MB listed, nothing written. YAML is read whole, and past the cap it is not read at all.
    const handle = await open(join(repo.root, 'huge.yaml'), 'w');
    await handle.truncate(300_000_000);
    await handle.close();
    let stderr = '';
    let stdout = '';
    const code = await runScanCommand(
      { paths: ['.'], staged: false, all: false, format: 'json', baselineWrite: false },
      {
        cwd: repo.root,
        env: repo.env,
        stdout: (text) => {
          stdout += text;
        },
        stderr: (text) => {
          stderr += text;
        },
      },
    );
    expect(code).toBe(1);
    expect(stderr).toContain('scan incomplete: 1 file could not be scanned');
    expect(stderr).toContain('huge.yaml');
    const report = JSON.parse(stdout);
    expect(report.findings).toEqual([]);
    expect(report.skipped).toEqual([expect.objectContaining({ path: 'huge.yaml', reason: 'too_large' })]);
  });
});
