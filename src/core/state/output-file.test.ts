import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { writeOutput } from './output-file.js';

describe('--output files: whose mode', () => {
  let dir: string;
  let umask: number;
  beforeEach(async () => {
    dir = await tempDir('tollgate-output-');
    umask = process.umask(0o022);
  });
  afterEach(async () => {
    process.umask(umask);
    await removeDir(dir);
  });
  const io = () => ({ cwd: dir, stdout: () => {} });

  test("a new report gets the mode the user's umask gives any new file", async () => {
    await writeOutput('report.md', '# tollgate\n', io());
    expect(statSync(join(dir, 'report.md')).mode & 0o777).toBe(0o644);
    process.umask(0o077);
    await writeOutput('private.md', '# tollgate\n', io());
    expect(statSync(join(dir, 'private.md')).mode & 0o777).toBe(0o600);
  });

  test('a file that exists keeps its mode', async () => {
    writeFileSync(join(dir, 'kept.md'), 'old\n', { mode: 0o640 });
    await writeOutput('kept.md', 'new\n', io());
    expect(statSync(join(dir, 'kept.md')).mode & 0o777).toBe(0o640);
  });
});
