import { readFileSync } from 'node:fs';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { TOLLGATE_VERSION } from '../../src/core/version.js';
import { stopStampOf } from '../../src/integrations/hooks/stop-fast-path.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';

/**
 * `.tollgate/state.json` is signed with a key outside the repository: an agent that edits a failed run into a pass
 * (reproduced on the unsigned format: the stop hook let it stop) is refused, and the hook blocks. The key lives
 * under the private HOME here, as it does for users (no TOLLGATE_STATE_KEY_FILE).
 */
let repo: TempRepo;
let env: NodeJS.ProcessEnv;
const CONFIG =
  'validation:\n  static_analysis: { enabled: false }\n  code_review: { enabled: false }\n  advisories: { enabled: false }\n';

beforeEach(async () => {
  repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'README.md': '# app\n' } });
  env = { ...repo.env };
  delete env.TOLLGATE_STATE_KEY_FILE;
  delete env.XDG_STATE_HOME;
  await repo.write('src/config.ts', `export const token = '${fakeChecksumToken('ghp_', 'tamper-state')}';\n`);
});
afterEach(() => repo.cleanup());

const statePath = () => join(repo.root, '.tollgate', 'state.json');

async function stopHook() {
  const payload = readFileSync(new URL('../fixtures/hooks/claude/stop.json', import.meta.url), 'utf8');
  const result = await runProcess(process.execPath, [CLI_PATH, 'hook', 'stop', '--agent', 'claude'], {
    cwd: repo.root,
    env,
    input: payload.replaceAll('__REPO__', repo.root),
  });
  return { decision: JSON.parse(result.stdout).decision ?? 'allow', stderr: result.stderr };
}

/** What an agent would do: turn the failed verdict of its change into a pass. */
function forgePass(state: { runs: { verdict: string }[]; [key: string]: unknown }) {
  for (const run of state.runs) run.verdict = 'passed';
  return state;
}

describe('tamper-evident state', () => {
  test('a forged pass in state.json is refused: the stop hook blocks and says why in one line', async () => {
    const run = await runCli(['run'], { cwd: repo.root, env });
    expect(run.exitCode).toBe(1);
    const key = join(repo.home, '.local', 'state', 'tollgate', 'state.key');
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect((await stat(key)).size).toBe(32);
    expect(await stopHook()).toMatchObject({ decision: 'block' });

    const state = JSON.parse(await readFile(statePath(), 'utf8'));
    expect(state.mac).toMatch(/^[0-9a-f]{64}$/);
    await writeFile(statePath(), JSON.stringify(forgePass(state), null, 2));
    const stop = await stopHook();
    expect(stop.decision).toBe('block');
    expect(stop.stderr).toContain(
      ".tollgate/state.json: its signature does not match (edited outside tollgate, or made under another user's key), so it is not trusted; ignored it: every validator runs again",
    );
  }, 120_000);

  test('a state file without a signature (older tollgate) reads as absent: no error, the hook asks for a run', async () => {
    const run = await runCli(['run'], { cwd: repo.root, env });
    expect(run.exitCode).toBe(1);
    const { mac: _mac, ...unsigned } = JSON.parse(await readFile(statePath(), 'utf8'));
    await writeFile(statePath(), JSON.stringify(forgePass(unsigned), null, 2));
    const stop = await stopHook();
    expect(stop).toEqual({ decision: 'block', stderr: '' });
    const again = await runCli(['run'], { cwd: repo.root, env });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).not.toContain('signature');
  }, 120_000);

  test('a forged stop-hook stamp does not let the fast path allow', async () => {
    await repo.remove('src/config.ts');
    await repo.write('src/ok.ts', 'export const ok = 1;\n');
    // The hook saves no stamp for a file written in the last 2 s (racy): make the edit an older one.
    const past = new Date(Date.now() - 60_000);
    for (const file of ['src/ok.ts', 'tollgate.config.yaml']) await utimes(join(repo.root, file), past, past);
    expect((await runCli(['run'], { cwd: repo.root, env })).exitCode).toBe(0);
    expect((await stopHook()).decision).toBe('allow');
    // The agent adds the secret back, computes the stamp of the new tree as the hook does, and claims "nothing
    // changed" for it.
    const cachePath = join(repo.root, '.tollgate', 'stop-cache.json');
    const cache = JSON.parse(await readFile(cachePath, 'utf8'));
    await repo.write('src/config.ts', `export const token = '${fakeChecksumToken('ghp_', 'tamper-stamp')}';\n`);
    const stamp = await stopStampOf(repo.root, env, TOLLGATE_VERSION);
    await writeFile(cachePath, JSON.stringify({ ...cache, stamp: stamp!.value, fingerprint: '' }));
    expect((await stopHook()).decision).toBe('block');
  }, 120_000);
});
