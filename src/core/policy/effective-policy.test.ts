import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { recordAcceptances } from './acceptances.js';
import { PolicyResolver } from './effective-policy.js';

let repo: TempRepo;
afterEach(async () => {
  await repo?.cleanup();
});

const open = (env: NodeJS.ProcessEnv = repo.env) => PolicyResolver.open({ repoRoot: repo.root, env });

describe('the effective policy', () => {
  test('unchanged files read as they are; an edit reads as the base has it and is pending', async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': 'base: main\n', '.gitleaksignore': 'a:r:1\n' } });
    await repo.write('.gitleaksignore', 'a:r:1\nb:r:2\n');
    await repo.write('tollgate.waivers.yaml', 'waivers: []\n');
    const resolver = await open();
    const files = await resolver.resolve(['tollgate.config.yaml', '.gitleaksignore', 'tollgate.waivers.yaml', 'none']);
    expect(files.map((file) => [file.path, file.status, file.effective?.toString()])).toEqual([
      ['tollgate.config.yaml', 'unchanged', 'base: main\n'],
      ['.gitleaksignore', 'changed', 'a:r:1\n'],
      ['tollgate.waivers.yaml', 'changed', undefined],
      ['none', 'unchanged', undefined],
    ]);
    const policy = resolver.policy();
    expect(policy.pending().map((file) => file.path)).toEqual(['.gitleaksignore', 'tollgate.waivers.yaml']);
    expect((await policy.read(`${repo.root}/.gitleaksignore`))?.toString()).toBe('a:r:1\n');
    expect(policy.digest()).toMatch(/^[0-9a-f]{64}$/);
  });

  test('an accepted edit applies, until the file changes again; TOLLGATE_POLICY=base ignores acceptances', async () => {
    repo = await createTempRepo({ files: { 'README.md': '#\n' } });
    await repo.write('.gitleaksignore', 'a:r:1\n');
    const [pending] = await (await open()).resolve(['.gitleaksignore']);
    await recordAcceptances(repo.root, [
      { path: '.gitleaksignore', from: pending!.base, to: pending!.working, by: 'ann', at: new Date().toISOString() },
    ]);
    expect((await (await open()).resolve(['.gitleaksignore']))[0]?.status).toBe('accepted');
    const ci = await open({ ...repo.env, TOLLGATE_POLICY: 'base' });
    expect(ci.mode).toBe('base');
    expect((await ci.resolve(['.gitleaksignore']))[0]?.status).toBe('changed');
    await repo.write('.gitleaksignore', 'a:r:1\nb:r:1\n');
    expect((await (await open()).resolve(['.gitleaksignore']))[0]?.status).toBe('changed');
  });

  test('CRLF where the base has LF is not an edit; no commit: every file is an edit; no repository: as it is', async () => {
    repo = await createTempRepo({ files: { '.gitleaksignore': 'a:r:1\n' } });
    await repo.write('.gitleaksignore', 'a:r:1\r\n');
    expect((await (await open()).resolve(['.gitleaksignore']))[0]?.status).toBe('unchanged');
    await repo.cleanup();

    repo = await createTempRepo({ files: { 'tollgate.config.yaml': 'ignore: ["*"]\n' }, commit: false });
    const empty = await open();
    expect(empty.baseCommit).toBeNull();
    expect((await empty.resolve(['tollgate.config.yaml']))[0]).toMatchObject({ status: 'changed', effective: null });

    const folder = await tempDir('tollgate-policy-');
    try {
      const plain = await PolicyResolver.open({ repoRoot: folder, env: repo.env });
      expect(plain.mode).toBe('unversioned');
    } finally {
      await removeDir(folder);
    }
  });

  test('TOLLGATE_POLICY takes base or local', async () => {
    repo = await createTempRepo({ files: { 'README.md': '#\n' } });
    await expect(open({ ...repo.env, TOLLGATE_POLICY: 'head' })).rejects.toThrow('TOLLGATE_POLICY: expected "base"');
  });
});
