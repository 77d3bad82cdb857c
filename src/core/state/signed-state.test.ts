import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { removeDir, tempDir } from '../../../test/support/temp-home.js';
import { readLocalWaivers } from './local-waivers-file.js';
import { lastVerdictFor, readState, recordRunVerdict } from './results-store.js';
import { checkSignature, signObject } from './signed-json.js';
import { loadStateKey, readStateKeyIfPresent, stateKeyPath } from './state-key.js';
import { ensureTollgateDir } from './tollgate-dir.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir('tollgate-signed-');
});
afterEach(async () => {
  await removeDir(dir);
});

describe('the state key', () => {
  test('two reads at once share one read of the file; a key still missing is read again next time', async () => {
    const path = join(dir, 'shared', 'state.key');
    const env = { TOLLGATE_STATE_SIGNER_PATH: path };
    expect(await readStateKeyIfPresent(env)).toBeNull();
    const created = await loadStateKey(env);
    const other = { TOLLGATE_STATE_SIGNER_PATH: join(dir, 'other.key') };
    await writeFile(other.TOLLGATE_STATE_SIGNER_PATH, Buffer.alloc(32, 7));
    const [first, second] = await Promise.all([readStateKeyIfPresent(other), readStateKeyIfPresent(other)]);
    expect(first).toBe(second);
    expect(first).toEqual(Buffer.alloc(32, 7));
    expect(await readStateKeyIfPresent(env)).toBe(created);
  });

  test('lives under XDG_STATE_HOME, else ~/.local/state; TOLLGATE_STATE_SIGNER_PATH (or the older TOLLGATE_STATE_KEY_FILE) overrides both', () => {
    expect(stateKeyPath({ HOME: '/h' })).toBe('/h/.local/state/tollgate/state.key');
    expect(stateKeyPath({ HOME: '/h', XDG_STATE_HOME: '/x' })).toBe('/x/tollgate/state.key');
    expect(stateKeyPath({ HOME: '/h', XDG_STATE_HOME: '/x', TOLLGATE_STATE_KEY_FILE: '/k' })).toBe('/k');
    expect(stateKeyPath({ HOME: '/h', TOLLGATE_STATE_SIGNER_PATH: '/s', TOLLGATE_STATE_KEY_FILE: '/k' })).toBe('/s');
    // An empty value (Gemini CLI's `${NAME:-}` of an unset variable) is no path.
    expect(stateKeyPath({ HOME: '/h', TOLLGATE_STATE_SIGNER_PATH: '', TOLLGATE_STATE_KEY_FILE: '' })).toBe(
      '/h/.local/state/tollgate/state.key',
    );
  });

  test('runs creating it at once all get the same 32-byte key, 0600, with no temp file left', async () => {
    const env = { TOLLGATE_STATE_KEY_FILE: join(dir, 'state', 'tollgate', 'state.key') };
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadStateKey(env)));
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1);
    expect(keys[0]).toHaveLength(32);
    const info = await stat(env.TOLLGATE_STATE_KEY_FILE);
    expect(info.mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, 'state', 'tollgate'))).toEqual(['state.key']);
  });

  test('a key of the wrong size is an error that says what to do', async () => {
    const path = join(dir, 'short.key');
    await writeFile(path, 'short');
    await expect(loadStateKey({ TOLLGATE_STATE_KEY_FILE: path })).rejects.toThrow(
      `${path}: tollgate's state key should be 32 bytes, found 5; delete it (tollgate makes a new one and re-validates)`,
    );
  });
});

describe('signatures', () => {
  const key = Buffer.alloc(32, 7);
  const other = Buffer.alloc(32, 8);

  test('valid as written and re-indented; forged once a value, the kind or the key differs; unsigned without mac', () => {
    const signed = signObject('state', { version: 1, runs: [{ verdict: 'failed' }] }, key);
    expect(checkSignature('state', signed, key)).toBe('valid');
    expect(checkSignature('state', JSON.parse(JSON.stringify(signed, null, 4)), key)).toBe('valid');
    expect(checkSignature('state', { ...signed, runs: [{ verdict: 'passed' }] }, key)).toBe('forged');
    expect(checkSignature('waivers', signed, key)).toBe('forged');
    expect(checkSignature('state', signed, other)).toBe('forged');
    expect(checkSignature('state', signed, null)).toBe('forged');
    expect(checkSignature('state', { version: 1 }, key)).toBe('unsigned');
    expect(checkSignature('state', { version: 1, mac: 42 }, key)).toBe('forged');
  });
});

describe('state.json and waivers.json refuse what tollgate did not write', () => {
  const statePath = () => join(dir, '.tollgate', 'state.json');
  const verdict = { runId: 'r1', fingerprint: 'fp', configHash: 'c', tools: ['checks'], complete: true } as const;

  test('a hand-edited pass is ignored, once, with a one-line warning; the next update sets it aside', async () => {
    await recordRunVerdict(dir, { ...verdict, verdict: 'failed' });
    const state = JSON.parse(await readFile(statePath(), 'utf8'));
    state.runs[0].verdict = 'passed';
    await writeFile(statePath(), JSON.stringify(state));
    const warnings: string[] = [];
    expect((await readState(dir, { onWarning: (line) => warnings.push(line) })).runs).toEqual([]);
    await readState(dir, { onWarning: (line) => warnings.push(line) });
    expect(warnings).toEqual([
      ".tollgate/state.json: its signature does not match (edited outside tollgate, or made under another user's key), so it is not trusted; ignored it: every validator runs again",
    ]);
    expect(await lastVerdictFor(dir, 'fp')).toBeNull();
    const updateWarnings: string[] = [];
    await recordRunVerdict(
      dir,
      { ...verdict, runId: 'r2', verdict: 'failed' },
      { onWarning: (line) => updateWarnings.push(line) },
    );
    expect(updateWarnings[0]).toMatch(/moved it to \.tollgate\/state\.json\.rejected and started fresh$/);
    expect(JSON.parse(await readFile(`${statePath()}.rejected`, 'utf8')).runs[0].verdict).toBe('passed');
    expect((await readState(dir)).runs.map((run) => run.runId)).toEqual(['r2']);
  });

  test('an unsigned state file (older tollgate) reads as absent, without a warning', async () => {
    ensureTollgateDir(dir);
    await writeFile(
      statePath(),
      JSON.stringify({ version: 1, tools: {}, runs: [{ ...verdict, verdict: 'passed', at: 'x' }] }),
    );
    const warnings: string[] = [];
    expect((await readState(dir, { onWarning: (line) => warnings.push(line) })).runs).toEqual([]);
    expect(warnings).toEqual([]);
  });

  test('a hand-written waivers.json waives nothing, with a warning', async () => {
    ensureTollgateDir(dir);
    const waiver = { findingId: 'abcd0123abcd0123', reason: 'mine', by: 'agent', at: '2026-11-26T10:00:00Z' };
    const path = join(dir, '.tollgate', 'waivers.json');
    await writeFile(path, JSON.stringify({ version: 1, waivers: [waiver], mac: '00'.repeat(32) }));
    const warnings: string[] = [];
    const read = await readLocalWaivers(dir, { onWarning: (line) => warnings.push(line) });
    expect(read).toEqual({ file: { version: 1, waivers: [] }, untrusted: 'forged' });
    expect(warnings).toEqual([
      ".tollgate/waivers.json: its signature does not match (edited outside tollgate, or made under another user's key), so it is not trusted; none of its waivers apply",
    ]);
    await writeFile(
      path,
      JSON.stringify(signObject('waivers', { version: 1, waivers: [waiver] }, await loadStateKey())),
    );
    expect((await readLocalWaivers(dir)).file.waivers).toEqual([waiver]);
  });
});
