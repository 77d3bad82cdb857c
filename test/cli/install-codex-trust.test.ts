import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * `tollgate install codex` must leave a hook Codex runs, or say it did not: an untrusted hook is skipped by Codex
 * without a word. The fake `codex app-server` answers `hooks/list` after a delay we choose (a busy machine).
 */
const FAKE_CODEX = fileURLToPath(new URL('../fixtures/hooks/fake-codex', import.meta.url));

describe('tollgate install codex (built CLI)', () => {
  let repo: TempRepo;
  beforeEach(async () => {
    repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
  });
  afterEach(() => repo.cleanup());

  const install = (env: NodeJS.ProcessEnv) =>
    runCli(['install', 'codex', '--user'], { cwd: repo.root, env: { ...repo.env, ...env }, timeoutMs: 120_000 });
  const withoutCodex = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');

  test('a codex app-server slower than 15 s to list the hooks is waited for, with progress, and the hook trusted', async () => {
    const result = await install({ PATH: `${FAKE_CODEX}:${withoutCodex}`, FAKE_CODEX_HOOKS_LIST: '16000' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'tollgate: waiting for `codex app-server` to list the hooks, to trust the Stop hook (15 s so far, at most 300 s)',
    );
    expect(result.stdout).toContain('codex (user): trusted the Stop hook in ~/.codex/config.toml');
    expect(await readFile(join(repo.home, '.codex/config.toml'), 'utf8')).toMatch(/trusted_hash = "sha256:/);
  }, 120_000);

  test('trust that could not be recorded exits 5 with the exact next step, after reporting what was written', async () => {
    const result = await install({ PATH: withoutCodex });
    expect(result.exitCode).toBe(5);
    expect(result.stdout).toContain(
      'codex (user): added the Stop hook `tollgate hook stop --agent codex` to ~/.codex/hooks.json',
    );
    expect(result.stderr).toBe(
      'tollgate: codex (user): the Stop hook is NOT trusted: codex is not on PATH. Put codex on PATH, then: Codex skips the hook until it is trusted: rerun `tollgate install codex --user`, or start `codex`, open /hooks and trust `tollgate hook stop --agent codex`.\n',
    );
  });
});
