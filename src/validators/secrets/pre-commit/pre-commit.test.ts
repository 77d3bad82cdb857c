import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../../test/support/git-repo.js';
import { runProcess } from '../../../core/process.js';
import { fakeChecksumToken } from '../../../secrets/sample-tokens.js';
import { HOOK_COMMAND, installPreCommitHook } from './install-hook.js';
import { runPreCommit } from './run-pre-commit.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const token = fakeChecksumToken('ghp_', 'pre-commit');

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('pre-commit hook', () => {
  test('blocks a commit that stages a secret, counting attempts, and passes once it is gone', async () => {
    repo = await createTempRepo({ files: { 'README.md': 'x\n' } });
    await repo.write('app.env', `TOKEN=${token}\n`);
    await repo.git('add', 'app.env');
    const first = await runPreCommit({ cwd: repo.root, env: repo.env });
    expect(first.exitCode).toBe(1);
    expect(first.message).toContain('commit blocked: 1 secret in staged changes (attempt 1)');
    expect(first.message).toContain('app.env:1:7 secrets/github-pat');
    expect(first.message).not.toContain(token);
    expect((await runPreCommit({ cwd: repo.root, env: repo.env })).message).toContain('(attempt 2)');
    await repo.write('app.env', `TOKEN=\${GITHUB_TOKEN}\n`);
    await repo.git('add', 'app.env');
    expect(await runPreCommit({ cwd: repo.root, env: repo.env })).toEqual({ exitCode: 0, message: '' });
  });

  test('after N attempts, with redaction and writeFiles allowed, redacts staged blob and file and keeps a 0600 backup', async () => {
    repo = await createTempRepo({
      files: {
        'tollgate.config.yaml': 'secrets:\n  redactAfterAttempts: 2\npermissions:\n  writeFiles: allow\n',
      },
    });
    await repo.write('app.env', `A=1\nTOKEN=${token}\n`);
    await repo.git('add', 'app.env');
    const blocked = await runPreCommit({ cwd: repo.root, env: repo.env });
    expect(blocked.exitCode).toBe(1);
    expect(blocked.message).toContain('After 2 attempts on the same findings they will be redacted.');
    const redacted = await runPreCommit({ cwd: repo.root, env: repo.env });
    expect(redacted.exitCode).toBe(0);
    expect(redacted.message).toContain('redacted 1 secret after 2 blocked attempts');
    expect(redacted.message).not.toContain(token);
    expect(await repo.git('show', ':app.env')).toBe('A=1\nTOKEN=<REDACTED:github-pat>\n');
    expect(readFileSync(join(repo.root, 'app.env'), 'utf8')).toBe('A=1\nTOKEN=<REDACTED:github-pat>\n');
    const backups = listFiles(join(repo.root, '.git', 'tollgate', 'redacted'));
    expect(backups.length).toBe(2);
    for (const backup of backups) {
      expect(statSync(backup).mode & 0o777).toBe(0o600);
      expect(readFileSync(backup, 'utf8')).toContain(token);
    }
  });

  test('redaction stays off when permissions.writeFiles is deny', async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': 'secrets:\n  redactAfterAttempts: 1\n' } });
    await repo.write('app.env', `TOKEN=${token}\n`);
    await repo.git('add', 'app.env');
    const result = await runPreCommit({ cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(1);
    expect(result.message).toContain('Redaction is configured but permissions.writeFiles is "deny".');
  });

  test('install writes an executable hook, updates its own, and never overwrites a foreign one', async () => {
    repo = await createTempRepo({ files: { 'README.md': 'x\n' } });
    const installed = await installPreCommitHook(repo.root, repo.env);
    expect(installed.status).toBe('installed');
    expect(statSync(installed.path).mode & 0o111).not.toBe(0);
    expect(readFileSync(installed.path, 'utf8')).toContain(HOOK_COMMAND);
    expect((await installPreCommitHook(repo.root, repo.env)).status).toBe('updated');
    await repo.write('.git/hooks/pre-commit', '#!/bin/sh\nmake lint\n');
    const foreign = await installPreCommitHook(repo.root, repo.env);
    expect(foreign).toMatchObject({ status: 'manual', line: HOOK_COMMAND });
    expect(readFileSync(join(repo.root, '.git/hooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nmake lint\n');
  });

  test('the hook calls the tollgate that wrote it by absolute path, and refuses the commit when none is found', async () => {
    repo = await createTempRepo({ files: { 'README.md': 'x\n' } });
    const fakeBin = join(repo.root, '..', `fake tollgate ${Date.now()}'s.sh`);
    writeFileSync(fakeBin, `#!/bin/sh\necho "fake tollgate: $*" >&2\nexit 0\n`, { mode: 0o755 });
    await installPreCommitHook(repo.root, repo.env, fakeBin);
    // PATH without tollgate or npx: only the absolute path can be found.
    const env = { ...repo.env, PATH: '/usr/bin:/bin' };
    await repo.write('a.txt', 'one\n');
    await repo.git('add', 'a.txt');
    const ok = await runProcess('git', ['commit', '-qm', 'one'], { cwd: repo.root, env });
    expect(ok.stderr).toContain('fake tollgate: hook pre-commit');
    expect(ok.exitCode).toBe(0);
    rmSync(fakeBin);
    await repo.write('b.txt', 'two\n');
    await repo.git('add', 'b.txt');
    const refused = await runProcess('git', ['commit', '-qm', 'two'], { cwd: repo.root, env });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr).toContain('tollgate pre-commit hook: tollgate was not found');
  });

  test('with husky present it prints the line to add', async () => {
    repo = await createTempRepo({ files: { '.husky/pre-commit': 'npm test\n' } });
    const outcome = await installPreCommitHook(repo.root, repo.env);
    expect(outcome).toMatchObject({ status: 'manual', reason: expect.stringContaining('husky') });
  });
});
