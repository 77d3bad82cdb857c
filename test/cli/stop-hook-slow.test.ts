import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * Slowness is not an error: a stop hook that gets no answer from git before its deadline blocks, saying validation is
 * still pending, and never lets the change through. git here is a wrapper that waits until the test releases it, so
 * the outcome does not depend on how busy the machine is: however long the hook waits, git has not answered.
 */
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const SECRET_LINE = `const token = 'ghp_${'A1b2C3d4E5f6G7h8I9j0'}${'K1l2M3n4O5p6'}Qr';\n`;

describe('tollgate hook stop with a git that does not answer in time (built CLI)', () => {
  let repo: TempRepo;
  let release: string;
  let slowPath: string;
  beforeEach(async () => {
    repo = await createTempRepo({ files: { 'tollgate.config.yaml': 'hooks:\n  stop:\n    run: true\n' } });
    const bin = join(repo.env.HOME!, 'slow-bin');
    release = join(repo.env.HOME!, 'release-git');
    await mkdir(bin, { recursive: true });
    // Waits for the release file (at most 120 s, so nothing outlives a failed test for long), then runs git.
    await writeFile(
      join(bin, 'git'),
      `#!/bin/sh\ni=0\nwhile [ ! -e '${release}' ] && [ $i -lt 2400 ]; do sleep 0.05; i=$((i+1)); done\nexec '${REAL_GIT}' "$@"\n`,
    );
    await chmod(join(bin, 'git'), 0o755);
    slowPath = `${bin}:${repo.env.PATH ?? ''}`;
  });
  afterEach(async () => {
    await writeFile(release, '');
    await repo.cleanup();
  });

  const stop = (env: NodeJS.ProcessEnv) =>
    runCli(['hook', 'stop', '--agent', 'claude'], {
      cwd: repo.root,
      env: { ...repo.env, ...env },
      input: JSON.stringify({ hook_event_name: 'Stop', session_id: 's1', cwd: repo.root }),
      timeoutMs: 120_000,
    });

  test('an unvalidated change holding a secret is blocked as "validation still pending", never allowed', async () => {
    await repo.write('config.js', SECRET_LINE);
    const result = await stop({ PATH: slowPath, TOLLGATE_HOOK_TIMEOUT: '6s' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.timedOut).toBe(false);
    const reply = JSON.parse(result.stdout);
    expect(reply.decision).toBe('block');
    expect(reply.reason).toMatch(
      /^tollgate: validation is still pending: the stop hook had no decision within \d+ s \(a loaded machine or a slow git\), so the current changes are not known to pass\. Call the `validation_status` tool \(tollgate MCP server\) to see where validation stands, or run `tollgate run`; fix what it reports, then finish\.$/,
    );
    expect(result.stdout).not.toContain('completion gate is OFF');
    expect(result.stderr).toContain('blocking the stop (validation pending)');
  });

  test('once git answers, the same hook decides from the change itself', async () => {
    await repo.write('config.js', SECRET_LINE);
    await writeFile(release, '');
    const result = await stop({ PATH: slowPath, TOLLGATE_HOOK_TIMEOUT: '600s' });
    const reply = JSON.parse(result.stdout);
    expect(reply.decision).toBe('block');
    expect(reply.reason).toMatch(/secret|token/i);
    expect(reply.reason).not.toContain('still pending');
  });

  test("tollgate's own failure still fails open, visibly: a config it cannot read", async () => {
    await repo.write('tollgate.config.yaml', 'validation: [\n');
    await repo.write('config.js', SECRET_LINE);
    const result = await stop({});
    const reply = JSON.parse(result.stdout);
    expect(reply.decision).toBeUndefined();
    expect(reply.systemMessage).toMatch(/^tollgate: the completion gate is OFF for this stop \(internal error: /);
  });

  test('a TOLLGATE_HOOK_TIMEOUT that is no duration is named, and the declared timeout used', async () => {
    await repo.write('notes.txt', 'a clean change\n');
    const result = await stop({ TOLLGATE_HOOK_TIMEOUT: 'soon' });
    expect(result.stderr).toContain(
      'tollgate: stop hook: warning: TOLLGATE_HOOK_TIMEOUT: expected the agent\'s hook timeout as a duration of at least 1s like "600s" or "10m", got "soon"; using 600 s',
    );
    expect(result.stdout.trim()).toBe('{}');
  });
});
