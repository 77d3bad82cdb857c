import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { TollgateError } from '../errors.js';
import { writeConfigTemplate } from './init-config.js';
import { loadConfig } from './load.js';
import { readConfigTemplate } from './template.js';

describe('writeConfigTemplate (tollgate init)', () => {
  let repoRoot: string;
  beforeEach(async () => {
    repoRoot = await tempDir('tollgate-init-');
  });
  afterEach(async () => {
    await removeDir(repoRoot);
  });

  test('writes the template to tollgate.config.yaml, which then loads', async () => {
    expect(await writeConfigTemplate({ repoRoot })).toEqual({
      file: 'tollgate.config.yaml',
      overwritten: false,
      text: await readConfigTemplate(),
    });
    expect(await readFile(join(repoRoot, 'tollgate.config.yaml'), 'utf8')).toBe(await readConfigTemplate());
    const loaded = await loadConfig({ repoRoot, cwd: repoRoot, env: {} });
    expect(loaded.file).toBe('tollgate.config.yaml');
    expect(await readdir(repoRoot)).toEqual(['tollgate.config.yaml']);
  });

  test.each(['tollgate.config.yaml', '.tollgate.yaml'])('refuses to overwrite %s without force', async (name) => {
    await writeFile(join(repoRoot, name), 'base: main\n');
    const error = await writeConfigTemplate({ repoRoot }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TollgateError);
    expect((error as TollgateError).message).toBe(`${name} already exists; rerun with --force to overwrite it`);
    expect(await readFile(join(repoRoot, name), 'utf8')).toBe('base: main\n');
  });

  test.each(['tollgate.config.yaml', '.tollgate.yaml'])('overwrites %s in place with force', async (name) => {
    await writeFile(join(repoRoot, name), 'base: main\n');
    expect(await writeConfigTemplate({ repoRoot, force: true })).toMatchObject({ file: name, overwritten: true });
    expect(await readFile(join(repoRoot, name), 'utf8')).toBe(await readConfigTemplate());
    expect(await readdir(repoRoot)).toEqual([name]);
  });

  test('writes the checks it is given, active, and returns the exact text', async () => {
    const checks = [{ name: 'test', run: 'go test ./...', source: 'go.mod' }];
    const written = await writeConfigTemplate({ repoRoot, checks });
    expect(await readFile(join(repoRoot, 'tollgate.config.yaml'), 'utf8')).toBe(written.text);
    const loaded = await loadConfig({ repoRoot, cwd: repoRoot, env: {} });
    expect((loaded.config as unknown as { checks: { run: string }[] }).checks.map((check) => check.run)).toEqual([
      'go test ./...',
    ]);
  });
});
