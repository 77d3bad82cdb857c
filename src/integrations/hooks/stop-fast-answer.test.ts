import { readFileSync } from 'node:fs';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fakeRegistry } from '../../../test/fakes/fake-validators.js';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { runCli } from '../../../test/support/run-cli.js';
import { parseConfigText } from '../../core/config/load.js';
import { runParallelValidation } from '../../core/run/parallel-validation.js';
import type { StdinRead } from './read-stdin.js';
import { runStopHook } from './stop.js';
import { type EarlyStamp, fastStopAnswer } from './stop-fast-answer.js';
import { stopStampOf } from './stop-fast-path.js';

let repo: TempRepo;
beforeEach(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n' } });
});
afterEach(async () => {
  await repo.cleanup();
});

async function payload(agent: string): Promise<string> {
  const raw = await readFile(new URL(`../../../test/fixtures/hooks/${agent}/stop.json`, import.meta.url), 'utf8');
  return raw.replaceAll('__REPO__', repo.root);
}

const fast = (text: string, env: NodeJS.ProcessEnv = {}, read: StdinRead = { kind: 'ok', text }, early?: EarlyStamp) =>
  fastStopAnswer({
    stdin: Readable.from([]),
    env: { ...repo.env, ...env },
    cwd: repo.root,
    read,
    version: 'test',
    ...(early ? { early } : {}),
  });

const full = async (text: string, env: NodeJS.ProcessEnv = {}) =>
  runStopHook({
    stdin: Readable.from([Buffer.from(text)]),
    env: { ...repo.env, ...env },
    cwd: repo.root,
    registry: fakeRegistry,
    warn: () => {},
    version: 'test',
  });

/** A validated change, older than the racy-clean window, whose stamp the full path saved. */
async function validatedAndStamped(agent: string): Promise<void> {
  await repo.write('src/a.ts', 'fine\n');
  const loaded = parseConfigText({ text: '', file: null, env: {}, registries: registriesWith(fakeRegistry) });
  await runParallelValidation({
    repoRoot: repo.root,
    config: loaded.config,
    configHash: loaded.hash,
    registry: fakeRegistry,
    active: fakeRegistry,
    input: {},
    sessionId: 'validator',
    version: 'test',
  });
  const past = new Date(Date.now() - 60_000);
  await utimes(join(repo.root, 'src/a.ts'), past, past);
  expect((await full(await payload(agent))).decision).toBe('allow'); // saves the stamp
}

describe('the stop hook fast answer (the small bundle bin/tollgate.cjs tries first)', () => {
  test.each(['claude', 'codex', 'copilot', 'cursor', 'gemini'])(
    '%s: on a validated, stamped tree it is exactly the full hook answer',
    async (agent) => {
      await validatedAndStamped(agent);
      const text = await payload(agent);
      const answer = await fast(text);
      expect(answer).not.toBeNull();
      expect(answer).toEqual(await full(text));
    },
  );

  test('anything else is left to the full hook: an edit, a warning, the reviewer flag, a bad payload, no stamp', async () => {
    const text = await payload('claude');
    expect(await fast(text)).toBeNull(); // never validated: no stamp
    await validatedAndStamped('claude');
    expect(await fast(text)).not.toBeNull();
    expect(await fast(text, { TOLLGATE_ACTIVE: '1' })).toBeNull();
    expect(await fast(text, { TOLLGATE_USE_SECRETS: '0' })).toBeNull();
    expect(await fast('not json')).toBeNull();
    expect(await fast('', {}, { kind: 'tty' })).toBeNull();
    await repo.write('src/a.ts', 'fin2\n'); // same size
    expect(await fast(text)).toBeNull();
  });

  test('a stamp started before the payload was read answers only for the folder the payload names', async () => {
    await validatedAndStamped('claude');
    const text = await payload('claude');
    const taken = await stopStampOf(repo.root, repo.env, 'test');
    expect(taken).not.toBeNull();
    const early = (cwd: string, stamp = taken): EarlyStamp => ({ cwd, stamp: Promise.resolve(stamp) });
    expect(await fast(text, {}, undefined, early(repo.root))).not.toBeNull();
    // Taken before an edit: the early stamp is what the answer stands on, and it no longer matches.
    const stale = { ...taken!, value: 'f'.repeat(64) };
    expect(await fast(text, {}, undefined, early(repo.root, stale))).toBeNull();
    // Taken in another folder than the payload's: set aside, and the stamp taken again where the payload says.
    expect(await fast(text, {}, undefined, early(join(repo.root, 'src'), stale))).not.toBeNull();
    await repo.write('src/a.ts', 'fin2\n');
    expect(await fast(text, {}, undefined, early(join(repo.root, 'src'), taken))).toBeNull();
  });

  test('a forged stamp is refused: its signature is checked as on the full path', async () => {
    await validatedAndStamped('claude');
    const cacheFile = join(repo.root, '.tollgate', 'stop-cache.json');
    const cache = JSON.parse(await readFile(cacheFile, 'utf8')) as Record<string, unknown>;
    await writeFile(cacheFile, JSON.stringify({ ...cache, fingerprint: 'f'.repeat(64) }));
    expect(await fast(await payload('claude'))).toBeNull();
  });
});

describe('bin/tollgate.cjs', () => {
  test('--version and -V print the package version, as the full CLI does', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag], { cwd: repo.root, env: repo.env });
      expect({ code: result.exitCode, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 0,
        stdout: `${version}\n`,
        stderr: '',
      });
    }
  });

  test('hook stop: the small bundle answers a validated tree, and hands anything else (with its payload) over', async () => {
    await repo.write('tollgate.config.yaml', 'checks:\n  - name: ok\n    run: "true"\n');
    await repo.commit('config');
    const text = await payload('claude');
    const stop = () => runCli(['hook', 'stop'], { cwd: repo.root, env: repo.env, input: text });
    await repo.write('src/a.ts', 'fine\n');
    const blocked = await stop();
    expect(blocked.exitCode).toBe(0);
    expect(JSON.parse(blocked.stdout).decision).toBe('block');
    expect((await runCli(['run'], { cwd: repo.root, env: repo.env })).exitCode).toBe(0);
    const past = new Date(Date.now() - 60_000);
    await utimes(join(repo.root, 'src/a.ts'), past, past);
    for (let stops = 0; stops < 2; stops++) {
      // The first is handed over (no stamp yet) and saves the stamp; the second is answered by the small bundle.
      const allowed = await stop();
      expect({ code: allowed.exitCode, stdout: allowed.stdout }).toEqual({ code: 0, stdout: '{}\n' });
    }
  });
});
