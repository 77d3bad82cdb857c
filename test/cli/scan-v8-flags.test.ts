import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runProcess } from '../../src/core/process.js';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';
import { timeBudget } from '../support/time-budget.js';

/**
 * bin/tollgate.cjs caps V8's inlining for a `scan` on Node 20 (docs/benchmarks.md, "Where a second scan thread's time
 * goes", session 22; a history scan since session 28). V8's flags are the process's, not an isolate's: a worker
 * started after they are set compiles under them too. A preload notes the flags bin/tollgate.cjs sets, which `node:`
 * modules are first loaded after that (V8 rejects Node's own code cache for them: three times the CPU), and whether
 * the scan's workers start after the flag.
 */
let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const INLINING = '--max-inlined-bytecode-size-cumulative=300';
const major = Number(process.versions.v8.split('.')[0]);
// V8 12 (Node 22) has no interrupt budget: a history scan asks TurboFan for more calls instead; V8 13 (Node 24) gets
// no flag (docs/benchmarks.md, "The table on Node 22 and 24", session 30). CI runs this file on Node 20;
// test/installed checks the flags on Node 22 and 24.
const BUDGET = major <= 11 ? '--interrupt-budget=270000' : '--invocation-count-for-turbofan=12000';
const REGEXPS = '--no-regexp-tier-up';
const flagged = major <= 12;
// A scan of files on V8 11 (Node 20) caps inlining at 150 and compiles regular expressions at their first run, where
// both were measured; V8 12 keeps the history's cap.
const FILES = major <= 11 ? `--max-inlined-bytecode-size-cumulative=150 ${REGEXPS}` : INLINING;

interface Seen {
  flags: string[];
  /** The flags set and the processes started, in turn: `flags <value>`, `spawn log` or `spawn other`. */
  events: string[];
  after: string[];
  workersAfterFlags: number;
  workers: number;
}

async function scanSeeing(args: string[], execArgv: string[] = []): Promise<{ seen: Seen; exitCode: number | null }> {
  repo ??= await createTempRepo({
    files: { 'a.js': `const token = "${fakeChecksumToken('ghp_', 'v8-flags')}";\n`, 'b.js': 'const b = 1;\n' },
  });
  const preload = join(repo.home, 'flag-watch.cjs');
  const log = join(repo.home, 'flag-watch.json');
  writeFileSync(
    preload,
    `const { isMainThread } = require('node:worker_threads');
if (isMainThread) {
  const v8 = require('node:v8'); const Module = require('node:module'); const fs = require('node:fs');
  const before = new Set(); const after = new Set(); const flags = []; let workers = 0; let workersAfterFlags = 0;
  const events = [];
  const set = v8.setFlagsFromString;
  v8.setFlagsFromString = function (value) {
    flags.push(value); events.push('flags ' + value); return set.call(this, value);
  };
  const { ChildProcess } = require('node:child_process');
  const spawn = ChildProcess.prototype.spawn;
  ChildProcess.prototype.spawn = function (options) {
    events.push((options.args ?? []).includes('log') ? 'spawn log' : 'spawn other');
    return spawn.call(this, options);
  };
  const load = Module._load;
  Module._load = function (request, ...rest) {
    if (typeof request === 'string' && request.startsWith('node:')) (flags.length ? after : before).add(request);
    const loaded = load.call(this, request, ...rest);
    if (request === 'node:worker_threads' || request === 'worker_threads') {
      const Worker = loaded.Worker;
      if (!Worker.watched) {
        loaded.Worker = class extends Worker {
          constructor(...args) { super(...args); workers++; if (flags.length) workersAfterFlags++; }
        };
        loaded.Worker.watched = true;
      }
    }
    return loaded;
  };
  process.on('exit', () => fs.writeFileSync(${JSON.stringify(log)}, JSON.stringify({ flags, events, workers, workersAfterFlags, after: [...after].filter((name) => !before.has(name)) })));
}
`,
  );
  const env: NodeJS.ProcessEnv = { ...repo.env, TOLLGATE_SCAN_THREADS: '2' };
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --require ${preload}`.trim();
  const command = ['scan', ...args, '--format', 'json'];
  // V8's flags are refused in NODE_OPTIONS: a flag of the user's own goes on node's command line.
  const result =
    execArgv.length === 0
      ? await runCli(command, { cwd: repo.root, env })
      : await runProcess(process.execPath, [...execArgv, CLI_PATH, ...command], {
          cwd: repo.root,
          env: { ...env, TOLLGATE_DEBUG: '' },
          timeoutMs: timeBudget(60_000),
        });
  expect(result.stderr).not.toMatch(/error|unrecognized|unknown/i);
  return { seen: JSON.parse(readFileSync(log, 'utf8')) as Seen, exitCode: result.exitCode };
}

describe("V8's inlining for a scan of files", () => {
  test("a scan's workers start under the flag, and its built-in modules load before it", async () => {
    const { seen, exitCode } = await scanSeeing(['--all']);
    expect(exitCode).toBe(1);
    // V8 13 (Node 24) and later: no gain measured there, so no flag changes.
    expect(seen.flags).toEqual(flagged ? [FILES] : []);
    expect(seen.workers).toBe(1);
    expect(seen.workersAfterFlags).toBe(flagged ? 1 : 0);
    const wanted = ['node:crypto', 'node:vm', 'node:fs/promises', 'node:worker_threads', 'node:os'];
    expect(seen.after.filter((name) => wanted.includes(name))).toEqual([]);
  });

  test('a history scan caps inlining with its own flags, and inlining named on the command line is left alone', async () => {
    const young = '--semi-space-growth-factor=1';
    const history = await scanSeeing(['--history', 'HEAD']);
    expect(history.seen.flags).toEqual(flagged ? [`${BUDGET} ${INLINING} ${REGEXPS}`, young] : []);
    const ownHistory = await scanSeeing(['--history', 'HEAD'], ['--max-inlined-bytecode-size-cumulative=500']);
    expect(ownHistory.seen.flags).toEqual(flagged ? [`${BUDGET} ${REGEXPS}`, young] : []);
    const own = await scanSeeing(['--all'], ['--max-inlined-bytecode-size-cumulative=500']);
    expect(own.exitCode).toBe(1);
    expect(own.seen.flags).toEqual([]);
  });

  test("a history scan keeps V8's young generation from growing only once its log pass starts", async () => {
    // The start-up keeps nearly all it allocates: kept at 1 MiB a semi-space from the first, it took 17 scavenges and
    // a mark-compact before the first commit (docs/benchmarks.md, "`scan --history`'s start-up", session 30).
    const { events } = (await scanSeeing(['--history', 'HEAD'])).seen;
    if (!flagged) return;
    expect(events[0]).toBe(`flags ${BUDGET} ${INLINING} ${REGEXPS}`);
    const young = events.indexOf('flags --semi-space-growth-factor=1');
    expect(events.slice(young, young + 2)).toEqual(['flags --semi-space-growth-factor=1', 'spawn log']);
    expect(events.indexOf('spawn log')).toBe(young + 1);
    const sized = await scanSeeing(['--history', 'HEAD'], ['--max-semi-space-size=16']);
    expect(sized.seen.flags).toEqual([`${BUDGET} ${INLINING} ${REGEXPS}`]);
  });

  test('a history scan compiles regular expressions at their first run, unless the command line names a regexp flag', async () => {
    // The rules' expressions each meet thousands of a history's texts: their bytecode and interpreted first runs were
    // work thrown away (docs/benchmarks.md, "`scan --history`'s start-up", session 30).
    const history = await scanSeeing(['--history', 'HEAD']);
    expect(history.seen.flags[0] ?? '').toContain(flagged ? REGEXPS : '');
    if (!flagged) return;
    const own = await scanSeeing(['--history', 'HEAD'], ['--regexp-tier-up-ticks=2']);
    expect(own.seen.flags[0]).toBe(`${BUDGET} ${INLINING}`);
    const files = await scanSeeing(['--all']);
    expect(files.seen.flags).toEqual(flagged ? [FILES] : []);
  });

  test('a scan of files on Node 20 compiles regular expressions at their first run, unless the command line names a regexp flag', async () => {
    // Each scanning thread's isolate compiled the rules' expressions to bytecode and again to machine code
    // (docs/benchmarks.md, session 31, helper "scan2cpu").
    const files = await scanSeeing(['--all']);
    expect(files.exitCode).toBe(1);
    expect(files.seen.flags).toEqual(flagged ? [FILES] : []);
    const own = await scanSeeing(['--all'], ['--regexp-tier-up-ticks=2']);
    expect(own.exitCode).toBe(1);
    expect(own.seen.flags).toEqual(flagged ? [FILES.replace(` ${REGEXPS}`, '')] : []);
  });
});
