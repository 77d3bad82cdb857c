import { readFileSync, statSync, utimesSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { registrationsFor } from '../../src/cli/commands/by-name.js';
import { type ProcessResult, runProcess } from '../../src/core/process.js';
import { fakeChecksumToken, fakeToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';
import { mcpTestClient } from '../support/mcp-client.js';
import { sarifProblems } from '../support/sarif-checks.js';
import { timeBudget } from '../support/time-budget.js';

/**
 * What users run: `npm pack`, `npm i -g --prefix` of that tarball, then every command and subcommand through the
 * installed `tollgate` in a throwaway repository and HOME. A bug that only the bundle has fails here. Nothing may exit
 * 3, print a stack trace or say "internal error".
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const AGENTS = ['claude', 'codex', 'copilot', 'cursor', 'gemini'] as const;
const OFFLINE_OSV = join(ROOT, 'test/fixtures/advisories/offline');
const TOKEN = fakeChecksumToken('ghp_', 'installed-package-canary');

let work: string;
let bin: string;
let repo: TempRepo;
let env: NodeJS.ProcessEnv;
let tarballBytes = 0;

beforeAll(async () => {
  work = await tempDir('tollgate-installed-');
  const packed = await runProcess('npm', ['pack', '--pack-destination', work, '--ignore-scripts', '--silent'], {
    cwd: ROOT,
    timeoutMs: timeBudget(120_000),
  });
  expect(packed.exitCode, packed.stderr).toBe(0);
  const tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
  tarballBytes = statSync(tarball).size;
  const prefix = join(work, 'prefix');
  const installed = await runProcess(
    'npm',
    ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
    { cwd: work, timeoutMs: timeBudget(120_000) },
  );
  expect(installed.exitCode, installed.stderr).toBe(0);
  bin = join(prefix, 'bin', 'tollgate');
  repo = await createTempRepo({
    files: {
      'tollgate.config.yaml': `checks:\n  - name: unit\n    run: node check.mjs\nadvisories:\n  sources: [offline]\n  offline: { dir: ${JSON.stringify(OFFLINE_OSV)} }\noutput: { sarifChecks: true }\n`,
      'check.mjs':
        "import { readFileSync } from 'node:fs';\nif (readFileSync('value.txt', 'utf8').trim() !== 'good') process.exit(1);\n",
      'value.txt': 'good\n',
      'src/app.js': 'export const app = 1;\n',
    },
  });
  env = { ...repo.env, PATH: `${join(prefix, 'bin')}:${repo.env.PATH ?? ''}`, TOLLGATE_DEBUG: '' };
}, timeBudget(240_000));

afterAll(async () => {
  await repo?.cleanup();
  if (work) await removeDir(work);
});

function tollgate(args: readonly string[], options: { input?: string; cwd?: string } = {}): Promise<ProcessResult> {
  return runProcess(bin, args, {
    cwd: options.cwd ?? repo.root,
    env,
    timeoutMs: timeBudget(60_000),
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
}

/** The properties every command must have whatever it answers: a documented exit code, no crash, no leak. */
function expectClean(result: ProcessResult, what: string): void {
  const output = `${result.stdout}\n${result.stderr}`;
  expect(result.spawnError, what).toBeUndefined();
  expect([0, 1, 2, 4, 5], `${what}: exit ${result.exitCode}\n${output.slice(0, 2000)}`).toContain(result.exitCode);
  expect(output, what).not.toMatch(/tollgate: internal error/i);
  expect(output, what).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(output, what).not.toContain(TOKEN);
  // V8's complaint about a flag it lacks: bin/tollgate.cjs sets its budget only on a V8 that has the flag (Node 20).
  expect(result.stderr, what).not.toMatch(/unrecognized flag/);
}

/** `tollgate … --help` answers, by command line: a group's help lists its subcommands and is checked as a command's. */
const helpAnswers = new Map<string, ProcessResult>();

async function helpOf(args: readonly string[]): Promise<ProcessResult> {
  const key = args.join(' ');
  const known = helpAnswers.get(key);
  if (known) return known;
  const help = await tollgate([...args, '--help']);
  helpAnswers.set(key, help);
  return help;
}

async function commandNames(args: string[]): Promise<string[]> {
  const help = await helpOf(args);
  const section = help.stdout.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((match) => match[1]!).filter((name) => name !== 'help');
}

describe('the installed package', () => {
  test('runs on the Node that runs the suite (test/node-versions/run.sh picks it by PATH)', async () => {
    const onPath = await runProcess('node', ['-p', 'process.version'], { cwd: repo.root, env });
    expect(onPath.stdout.trim()).toBe(process.version);
    const expected = process.env.TOLLGATE_EXPECT_NODE;
    if (expected) expect(process.version).toBe(expected);
    expectClean(await tollgate(['--version']), '--version');
  });

  test('ships the bundle and its loader, not the unbundled build or a source map, and needs no dependencies', async () => {
    const packageDir = join(dirname(dirname(bin)), 'lib', 'node_modules', 'tollgate');
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(await readdir(join(packageDir, 'dist'))).toEqual(['bundle']);
    expect((await readdir(join(packageDir, 'dist', 'bundle', 'cli'))).sort()).toEqual([
      'fast-start.cjs',
      'run-fast.cjs',
      'scan-worker.cjs',
      'scan.cjs',
      'stop-hook.cjs',
      'tollgate.cjs',
    ]);
    expect(statSync(join(packageDir, 'bin', 'tollgate.cjs')).mode & 0o111).not.toBe(0);
  });

  /** The installed bin in the test repository with `cacheDir` as its code cache folder. */
  const runWithCache = (cacheDir: string) => (args: string[]) =>
    runProcess(bin, args, {
      cwd: repo.root,
      env: { ...env, TOLLGATE_CACHE_DIR: cacheDir },
      timeoutMs: timeBudget(60_000),
    });

  test('starts from its code cache in the user cache folder; a corrupt cache file changes nothing', async () => {
    const cacheDir = join(work, 'code-cache');
    const withCache = runWithCache(cacheDir);
    const first = await withCache(['stats']);
    expectClean(first, 'stats (writes the cache)');
    const files = (await readdir(cacheDir)).filter((name) => name.endsWith('-stats.bin'));
    expect(files).toHaveLength(1);
    const again = await withCache(['stats']);
    expect([again.exitCode, again.stdout]).toEqual([first.exitCode, first.stdout]);
    await writeFile(join(cacheDir, files[0]!), 'corrupt');
    const corrupt = await withCache(['stats']);
    expectClean(corrupt, 'stats (corrupt cache)');
    expect([corrupt.exitCode, corrupt.stdout]).toEqual([first.exitCode, first.stdout]);
    expect(statSync(join(cacheDir, files[0]!)).size).toBeGreaterThan(1000);
  });

  test("`scan` starts from the scan's own bundle (its code cache file is that bundle's), its help from the whole CLI's", async () => {
    const packageDir = join(dirname(dirname(bin)), 'lib', 'node_modules', 'tollgate');
    const idOf = (file: string) =>
      /tollgate-bundle-sha256: ([0-9a-f]{64})\s*$/
        .exec(readFileSync(join(packageDir, 'dist', 'bundle', 'cli', file), 'latin1'))![1]!
        .slice(0, 32);
    const cacheDir = join(work, 'code-cache-scan');
    const withCache = runWithCache(cacheDir);
    expectClean(await withCache(['scan', 'src', '--format', 'json']), 'scan src');
    expectClean(await withCache(['scan', '--help']), 'scan --help');
    const files = (await readdir(cacheDir)).filter((name) => name.endsWith('.bin')).sort();
    expect(files.map((name) => `${name.slice(0, 32)} ${name.split('-').at(-1)}`).sort()).toEqual(
      [`${idOf('scan.cjs')} scan.bin`, `${idOf('tollgate.cjs')} help.bin`].sort(),
    );
  });

  test("a history scan sets V8's flags by the V8 it runs on, a scan of files its own, and Node never refuses one", async () => {
    // bin/tollgate.cjs tunes V8 per major: V8 11 (Node 20) has an interrupt budget, V8 12 (Node 22) a TurboFan
    // invocation count in its place; V8 13 (Node 24) and later get none (docs/benchmarks.md, "The table on Node 22
    // and 24", session 30). test/node-versions/run.sh runs this on Node 22 and 24.
    const preload = join(work, 'flag-watch.cjs');
    const log = join(work, 'flag-watch.json');
    await writeFile(
      preload,
      `const v8 = require('node:v8'); const flags = []; const set = v8.setFlagsFromString;
v8.setFlagsFromString = function (value) { flags.push(value); return set.call(this, value); };
process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, JSON.stringify(flags)));
`,
    );
    const watched = async (args: string[]): Promise<string[]> => {
      const result = await runProcess(bin, args, {
        cwd: repo.root,
        env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${preload}`.trim() },
        timeoutMs: timeBudget(60_000),
      });
      expectClean(result, args.join(' '));
      return JSON.parse(readFileSync(log, 'utf8')) as string[];
    };
    const inlining = '--max-inlined-bytecode-size-cumulative=300';
    const rest = `${inlining} --no-regexp-tier-up`;
    const major = Number(process.versions.v8.split('.')[0]);
    const young = '--semi-space-growth-factor=1';
    const turbofan = `--invocation-count-for-turbofan=12000 ${rest}`;
    const expected: Record<number, { history: string[]; files: string[] }> = {
      11: {
        history: [`--interrupt-budget=270000 ${rest}`, young],
        files: ['--max-inlined-bytecode-size-cumulative=150 --no-regexp-tier-up'],
      },
      12: { history: [turbofan, young], files: [inlining] },
    };
    const wanted = expected[major] ?? { history: [], files: [] };
    expect(await watched(['scan', '--history', 'HEAD', '--format', 'json'])).toEqual(wanted.history);
    expect(await watched(['scan', 'src', '--format', 'json'])).toEqual(wanted.files);
  });

  test("the README's package sizes are what npm pack and the install really give (within 20%)", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const stated = /about (\d+) kB packed and ([\d.]+) MB installed/.exec(readme);
    expect(stated, 'README: "about N kB packed and M MB installed"').not.toBeNull();
    const packageDir = join(dirname(dirname(bin)), 'lib', 'node_modules', 'tollgate');
    const installedBytes = await directoryBytes(packageDir);
    const packedKb = tarballBytes / 1000;
    const installedMb = installedBytes / 1e6;
    const near = (actual: number, documented: number) => Math.abs(actual - documented) / documented <= 0.2;
    expect(near(packedKb, Number(stated![1])), `packed ${packedKb.toFixed(0)} kB, README says ${stated![1]} kB`).toBe(
      true,
    );
    expect(
      near(installedMb, Number(stated![2])),
      `installed ${installedMb.toFixed(2)} MB, README says ${stated![2]} MB`,
    ).toBe(true);
  });

  test('every command and subcommand has --help with an example', async () => {
    // Through the installed package: the top level and each group, whose help lists every command the bundle has, and
    // one leaf command. Each leaf's own help and its examples are checked in process (src/cli/commands/help.test.ts),
    // from the same commander definitions, without a CLI start per command: here the bundle must list exactly them.
    const top = await commandNames([]);
    expect(top).toEqual(expect.arrayContaining(['run', 'scan', 'install', 'mcp', 'hook', 'config', 'advisories']));
    const source = await sourceCommands();
    expect(top).toEqual(source.map(([name]) => name));
    const groups = source.filter(([, subcommands]) => subcommands.length > 0).map(([name]) => name);
    expect(groups).toEqual(expect.arrayContaining(['hook', 'config', 'advisories', 'alerts', 'policy']));
    for (const [group, subcommands] of source.filter(([name]) => groups.includes(name))) {
      expect(await commandNames([group]), `tollgate ${group} --help`).toEqual(subcommands);
    }
    expectClean(await helpOf([]), '--help');
    for (const command of [...groups.map((group) => [group]), ['hook', 'stop']]) {
      const result = await helpOf(command);
      expectClean(result, `${command.join(' ')} --help`);
      expect(result.exitCode, command.join(' ')).toBe(0);
      expect(result.stdout, command.join(' ')).toMatch(/Examples?:\n\s+\$ tollgate /);
    }
  });

  test('install, doctor and uninstall: in the project and for the user', async () => {
    // One doctor per scope, with the agents installed, reads each installation as one doctor per agent would. In each
    // scope one JSON and one TOML writer: each agent's own files, paths and format are checked in process
    // (src/integrations/hooks/install.test.ts), from the same writers the bundle holds.
    for (const [scope, agents] of [
      ['--project', ['claude', 'codex']],
      ['--user', ['claude', 'codex']],
    ] as const) {
      for (const agent of agents) {
        const installed = await tollgate(['install', agent, scope]);
        expectClean(installed, `install ${agent} ${scope}`);
        // No codex on this PATH: its hook's trust cannot be recorded, and an install that did not take effect is not 0.
        expect(installed.exitCode, `install ${agent} ${scope}`).toBe(agent === 'codex' ? 5 : 0);
      }
      const doctorArgs = scope === '--user' ? ['doctor', '--json'] : ['doctor'];
      expectClean(await tollgate(doctorArgs), `${doctorArgs.join(' ')} after installing ${agents.join(', ')} ${scope}`);
      for (const agent of agents) {
        expectClean(await tollgate(['uninstall', agent, scope]), `uninstall ${agent} ${scope}`);
      }
    }
  });

  test('run in each format, log, waive and stats on a real change', async () => {
    await writeFile(join(repo.root, 'value.txt'), 'bad\n');
    const markdown = await tollgate(['run']);
    expectClean(markdown, 'run');
    expect(markdown.exitCode).toBe(1);
    expect(markdown.stdout).toContain('# tollgate: FAILED');
    const json = await tollgate(['run', '--format', 'json']);
    expectClean(json, 'run --format json');
    const report = JSON.parse(json.stdout);
    const sarif = await tollgate(['run', '--format', 'sarif', '--output', 'out/report.sarif']);
    expectClean(sarif, 'run --format sarif --output');
    const sarifText = readFileSync(join(repo.root, 'out/report.sarif'), 'utf8');
    const github = await tollgate(['run', '--format', 'github']);
    expectClean(github, 'run --format github');
    expect(github.stdout).toMatch(/^::error file=tollgate\.config\.yaml,line=2,title=checks%3A /m);
    const html = await tollgate(['run', '--format', 'html', '--output', 'out/report.html']);
    expectClean(html, 'run --format html --output');
    expect(html.exitCode).toBe(1);
    expect(sarifProblems(sarifText)).toEqual([]);
    // The failed check points at the config line that defines it.
    expect(JSON.parse(sarifText).runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'tollgate.config.yaml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 2 },
    });
    for (const args of [
      ['log'],
      ['log', '--list'],
      ['log', '--json', '--output', '-'],
      ['log', '--format', 'html', '--output', 'out/run.html'],
      // Plain `stats` ran above (the code cache test).
      ['stats', '--json'],
      ['waive', '--list'],
    ]) {
      expectClean(await tollgate(args), args.join(' '));
    }
    // The latest run is the HTML one: `log` draws the page it drew, from the report it stored.
    const runPage = readFileSync(join(repo.root, 'out/report.html'), 'utf8');
    expect(runPage).toContain('<section class="summary"');
    expect(readFileSync(join(repo.root, 'out/run.html'), 'utf8')).toBe(runPage);
    const finding = report.tools.flatMap((tool: { findings: Array<{ id: string }> }) => tool.findings)[0];
    expect(finding).toBeDefined();
    expectClean(await tollgate(['waive', finding.id, '--reason', 'known flaky on CI']), 'waive');
    await writeFile(join(repo.root, 'value.txt'), 'good\n');
    const passed = await tollgate(['run', '--no-wait']);
    expectClean(passed, 'run after the fix');
  });

  test('a plain run on an unchanged tree is answered by its small bundle, as its own recorded run', async () => {
    const clean = await createTempRepo({
      files: { 'tollgate.config.yaml': 'checks:\n  - name: ok\n    run: "true"\n' },
    });
    try {
      await clean.publish();
      const past = new Date(Date.now() - 60_000);
      utimesSync(join(clean.root, 'tollgate.config.yaml'), past, past);
      expectClean(await tollgate(['run'], { cwd: clean.root }), 'first run on an unchanged tree');
      const first = await tollgate(['run'], { cwd: clean.root });
      expectClean(first, 'run on an unchanged tree');
      expect(first.exitCode).toBe(0);
      const second = await tollgate(['run'], { cwd: clean.root });
      expectClean(second, 'run repeated from the saved report');
      expect(second.exitCode).toBe(0);
      const runId = /run `([^`]+)`/.exec(second.stdout)?.[1] ?? '';
      const start = JSON.parse(
        readFileSync(join(clean.root, '.tollgate/runs', runId, 'events.jsonl'), 'utf8').split('\n')[0]!,
      );
      expect(start.data.unchangedSince).toBe(/run `([^`]+)`/.exec(first.stdout)?.[1]);
      expectClean(await tollgate(['log', runId], { cwd: clean.root }), 'log of a repeated run');
    } finally {
      await clean.cleanup();
    }
  });

  test('policy: an edit of the config is pending, listed by status; accept needs a person at a terminal', async () => {
    const config = readFileSync(join(repo.root, 'tollgate.config.yaml'), 'utf8');
    await writeFile(join(repo.root, 'tollgate.config.yaml'), `${config}ignore: ["**"]\n`);
    try {
      const status = await tollgate(['policy', 'status']);
      expectClean(status, 'policy status');
      expect(status.stdout).toMatch(/tollgate\.config\.yaml +edited: PENDING a person's review/);
      const json = await tollgate(['policy', 'status', '--json']);
      expectClean(json, 'policy status --json');
      expect(JSON.parse(json.stdout).files).toContainEqual(
        expect.objectContaining({ path: 'tollgate.config.yaml', status: 'changed' }),
      );
      const accept = await tollgate(['policy', 'accept']);
      expectClean(accept, 'policy accept');
      expect(accept.exitCode).toBe(2);
      expect(accept.stderr).toContain('policy accept: refused');
      const run = await tollgate(['run', '--format', 'json']);
      expectClean(run, 'run with a pending policy edit');
      expect(run.exitCode).toBe(1);
      expect(JSON.parse(run.stdout).tools.map((tool: { name: string }) => tool.name)).toContain('policy');
    } finally {
      await writeFile(join(repo.root, 'tollgate.config.yaml'), config);
    }
  });

  test('scan in every mode, and the pre-commit hook through a real git commit', async () => {
    await writeFile(join(repo.root, 'src/settings.js'), `export const token = '${TOKEN}';\n`);
    const results = new Map<string, ProcessResult>();
    for (const args of [
      ['scan', 'src'],
      ['scan', '--all'],
      ['scan', '--all', '--format', 'json'],
      ['scan', '--all', '--format', 'sarif'],
      ['scan', '--all', '--format', 'github'],
      ['scan', '--history', 'HEAD'],
      ['scan', '--all', '--report-allowed'],
      ['scan', '--baseline-audit'],
    ]) {
      const result = await tollgate(args);
      expectClean(result, args.join(' '));
      results.set(args.join(' '), result);
    }
    expect(results.get('scan --all')?.exitCode).toBe(1);
    expect(sarifProblems(results.get('scan --all --format sarif')?.stdout ?? '')).toEqual([]);
    // A made-up password in a test folder is reported as a fixture: not blocking unless asked.
    await mkdir(join(repo.root, 'fixture-tests'), { recursive: true });
    await writeFile(join(repo.root, 'fixture-tests/test_db.py'), 'db_password = "Kestrel42!"\n');
    const fixture = await tollgate(['scan', 'fixture-tests/test_db.py', '--format', 'json']);
    expectClean(fixture, 'scan a test fixture');
    expect([fixture.exitCode, JSON.parse(fixture.stdout).fixtures.count]).toEqual([0, 1]);
    expect((await tollgate(['scan', 'fixture-tests/test_db.py', '--fixtures', 'block'])).exitCode).toBe(1);
    await removeDir(join(repo.root, 'fixture-tests'));
    expectClean(await tollgate(['hook', 'install', 'pre-commit']), 'hook install pre-commit');
    await repo.git('add', 'src/settings.js');
    expectClean(await tollgate(['scan', '--staged']), 'scan --staged');
    const blocked = await runProcess('git', ['commit', '-qm', 'add settings'], { cwd: repo.root, env });
    expect(blocked.exitCode, blocked.stderr).not.toBe(0);
    expect(blocked.stderr).not.toContain(TOKEN);
    await repo.git('rm', '-q', '--cached', 'src/settings.js');
    await writeFile(join(repo.root, 'src/settings.js'), 'export const token = process.env.TOKEN;\n');
    await repo.git('add', 'src/settings.js');
    const committed = await runProcess('git', ['commit', '-qm', 'read the token from the environment'], {
      cwd: repo.root,
      env,
    });
    expect(committed.exitCode, committed.stderr).toBe(0);
  });

  test('piping into a reader that stops early ends quietly', async () => {
    const many = Array.from(
      { length: 3000 },
      (_, i) => `const k${i} = '${fakeChecksumToken('ghp_', `pipe-${i}`)}';`,
    ).join('\n');
    await writeFile(join(repo.root, 'many.js'), `${many}\n`);
    const piped = await runProcess('sh', ['-c', `"${bin}" scan many.js --format json | head -c 10 >/dev/null`], {
      cwd: repo.root,
      env,
      timeoutMs: timeBudget(60_000),
    });
    expect(piped.stderr).not.toMatch(/EPIPE|Unhandled/);
    await removeDir(join(repo.root, 'many.js'));
  });

  test('hook stop answers each agent in its own format', async () => {
    for (const agent of AGENTS) {
      const payload = readFileSync(join(ROOT, 'test/fixtures/hooks', agent, 'stop.json'), 'utf8')
        .replace(/^\uFEFF/, '')
        .replaceAll('__REPO__', repo.root);
      const result = await tollgate(['hook', 'stop', '--agent', agent], { input: payload });
      expectClean(result, `hook stop --agent ${agent}`);
      if (result.stdout.trim() !== '') JSON.parse(result.stdout);
    }
  });

  test('a stop hook that cannot decide says the gate is off, and doctor reports the fail-open', async () => {
    const config = readFileSync(join(repo.root, 'tollgate.config.yaml'), 'utf8');
    await writeFile(join(repo.root, 'tollgate.config.yaml'), 'validation: [\n');
    try {
      const payload = readFileSync(join(ROOT, 'test/fixtures/hooks/claude/stop.json'), 'utf8').replaceAll(
        '__REPO__',
        repo.root,
      );
      const stop = await tollgate(['hook', 'stop', '--agent', 'claude'], { input: payload });
      expectClean(stop, 'hook stop with a broken config');
      expect(JSON.parse(stop.stdout).systemMessage).toContain('the completion gate is OFF');
      const doctor = await tollgate(['doctor']);
      expectClean(doctor, 'doctor');
      expect(doctor.stdout).toMatch(/stop hook: last fail-open .* \(claude\): .*let the agent stop unvalidated/);
    } finally {
      await writeFile(join(repo.root, 'tollgate.config.yaml'), config);
    }
  });

  test('a .gitignore that lists .tollgate/ does not break the change set (git 2.39)', async () => {
    const ignored = await createTempRepo({
      files: { '.gitignore': '.tollgate/\nnode_modules/\n', 'a.js': 'export const a = 1;\n' },
    });
    try {
      await writeFile(join(ignored.root, 'a.js'), 'export const a = 2;\n');
      const ignoredEnv = { ...ignored.env, PATH: env.PATH, TOLLGATE_DEBUG: '' };
      const first = await runProcess(bin, ['run', '--format', 'json'], {
        cwd: ignored.root,
        env: ignoredEnv,
        timeoutMs: timeBudget(60_000),
      });
      expectClean(first, 'run with .tollgate/ in .gitignore');
      expect(JSON.parse(first.stdout).files).toEqual([{ path: 'a.js', status: 'modified' }]);
      const second = await runProcess(bin, ['run'], {
        cwd: ignored.root,
        env: ignoredEnv,
        timeoutMs: timeBudget(60_000),
      });
      expectClean(second, 'second run with .tollgate/ in .gitignore');
    } finally {
      await ignored.cleanup();
    }
  });

  test('a scoped call never passes the whole change: secret_scanning on one path, then run and the stop hook', async () => {
    const keyId = fakeToken('AKIA', 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 'bypass-id');
    const secretKey = fakeToken('', 40, undefined, 'bypass-secret');
    const bypass = await createTempRepo({
      files: {
        'app.js': 'export const app = 1;\n',
        'tollgate.config.yaml': 'validation:\n  advisories: { enabled: false }\n',
      },
    });
    try {
      await writeFile(join(bypass.root, 'app.js'), 'export const app = 2;\n');
      await writeFile(
        join(bypass.root, 'config.js'),
        `export const aws = { id: '${keyId}', secret: '${secretKey}' };\n`,
      );
      const bypassEnv = { ...bypass.env, PATH: env.PATH, TOLLGATE_DEBUG: '' } as Record<string, string>;
      const transport = new StdioClientTransport({
        command: bin,
        args: ['mcp'],
        cwd: bypass.root,
        env: bypassEnv,
        stderr: 'pipe',
      });
      const client = mcpTestClient('bypass-test');
      await client.connect(transport);
      try {
        const scoped = await client.callTool({ name: 'secret_scanning', arguments: { paths: ['app.js'] } });
        const text = JSON.stringify(scoped.content);
        expect(text).not.toContain('may be declared done');
        expect(text).toContain('part of the change only');
        const status = await client.callTool({ name: 'validation_status', arguments: {} });
        expect((status.structuredContent as { state: string }).state).not.toBe('validated');
      } finally {
        await client.close();
      }
      const run = await runProcess(bin, ['run', '--format', 'json'], {
        cwd: bypass.root,
        env: bypassEnv,
        timeoutMs: timeBudget(60_000),
      });
      expect(run.exitCode).toBe(1);
      const secrets = JSON.parse(run.stdout).tools.find((tool: { name: string }) => tool.name === 'secrets');
      expect(secrets.status).toBe('failed');
      expect(run.stdout).not.toContain(secretKey);
      const payload = readFileSync(join(ROOT, 'test/fixtures/hooks/claude/stop.json'), 'utf8').replaceAll(
        '__REPO__',
        bypass.root,
      );
      const stop = await runProcess(bin, ['hook', 'stop', '--agent', 'claude'], {
        cwd: bypass.root,
        env: bypassEnv,
        input: payload,
      });
      expect(JSON.parse(stop.stdout).decision).toBe('block');
    } finally {
      await bypass.cleanup();
    }
  });

  test('advisories check, config, init, agents and the GitHub commands without GitHub', async () => {
    const advisories = await tollgate(['advisories', 'check', 'npm:lodash@4.17.15']);
    expectClean(advisories, 'advisories check');
    expect(advisories.exitCode).toBe(1);
    for (const args of [
      ['config', 'show'],
      ['config', 'show', '--json'],
      ['config', 'schema'],
      ['agents'],
      ['agents', '--json'],
    ]) {
      const result = await tollgate(args);
      expectClean(result, args.join(' '));
      expect(result.exitCode, args.join(' ')).toBe(0);
      if (args[1] === 'schema') JSON.parse(result.stdout);
    }
    const fresh = await createTempRepo({ files: { 'README.md': '# fresh\n' } });
    try {
      const init = await runProcess(bin, ['init'], { cwd: fresh.root, env: { ...fresh.env, PATH: env.PATH } });
      expectClean(init, 'init');
      expect(readFileSync(join(fresh.root, 'tollgate.config.yaml'), 'utf8')).toContain('checks');
    } finally {
      await fresh.cleanup();
    }
    // No GitHub here: each says so on one line, as a usage or connection problem, never a crash.
    const offline = { ...env, GH_TOKEN: '', GITHUB_TOKEN: '', GITHUB_API_URL: 'http://127.0.0.1:9' };
    for (const args of [
      ['comments', '--pr', '1'],
      // Each command once: their other modes are checked in process (fix-comments, validate-alert --local).
      ['fix-comments', '--payload', 'missing.json', '--evidence', 'remote', '--wait-checks', '1m'],
      ['validate-alert'],
      ['validate-alert', '--org', 'acme', '--open', '--shard', '1/2', '--out', 'sweep'],
      // Outside a GitHub runner the Action's step names the variable it misses.
      ['action-step'],
    ]) {
      const result = await runProcess(bin, args, { cwd: repo.root, env: offline, timeoutMs: timeBudget(60_000) });
      expectClean(result, args.join(' '));
      expect(result.exitCode, args.join(' ')).not.toBe(0);
    }
    // A sweep shard's folder as the workflow uploads it, merged into one summary.
    const shard = join(repo.home, 'shard-1', 'acme', 'api', '7');
    await mkdir(shard, { recursive: true });
    const decided = { repo: 'acme/api', number: 7, updatedAt: '2026-11-20T10:00:00Z' };
    await writeFile(join(shard, 'done.json'), JSON.stringify({ ...decided, configHash: 'x' }));
    await writeFile(
      join(shard, 'result.json'),
      JSON.stringify({
        ...decided,
        secretType: 'github_personal_access_token',
        verdict: 'FALSE_POSITIVE',
        confidence: 8,
        confidenceLabel: 'High',
        riskLevel: 'Low',
        keyFinding: 'A revoked token.',
        winner: { index: 0, agent: 'claude' },
        decidedBy: 'single',
        analyses: 1,
        usage: {},
      }),
    );
    const merged = await tollgate(['alerts', 'merge', join(repo.home, 'shard-1'), '--format', 'json']);
    expectClean(merged, 'alerts merge');
    expect(JSON.parse(merged.stdout).totals).toEqual({ FALSE_POSITIVE: 1 });
    await writeFile(join(repo.root, 'report.md'), '# Secret alert analysis\n\nnothing here\n');
    expectClean(await tollgate(['evals', 'report.md']), 'evals');
  });

  test('mcp serves the validators to the SDK client', async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ['mcp'],
      cwd: repo.root,
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = mcpTestClient('installed-test');
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools;
      const names = tools.map((tool) => tool.name);
      // One tool per validator, besides parallel_validation and validation_status.
      expect(names).toEqual(
        expect.arrayContaining([
          'parallel_validation',
          'checks',
          'static_analysis',
          'secret_scanning',
          'dependency_advisories',
          'validation_status',
        ]),
      );
      expect(tools.find((tool) => tool.name === 'parallel_validation')?.annotations?.readOnlyHint).toBe(false);
      const unknown = await client.callTool({ name: 'nope', arguments: {} }).catch((error) => error);
      expect((unknown as { code?: number }).code).toBe(-32602);
      // The arguments a tool's description asks for are in its advertised schema.
      const secretScanning = tools.find((tool) => tool.name === 'secret_scanning')!;
      expect(Object.keys(secretScanning.inputSchema.properties ?? {})).toContain('paths');
      const bad = await client.callTool({ name: 'secret_scanning', arguments: { paths: 'not-a-list' } });
      expect(bad.isError).toBe(true);
      const status = await client.callTool({ name: 'validation_status', arguments: {} });
      expect(status.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(stderr.join('')).not.toMatch(/tollgate: internal error/i);
  });
});

/** The commands the source registers, each with its subcommands' names (none for a leaf), in help order. */
async function sourceCommands(): Promise<[string, string[]][]> {
  const program = new Command('tollgate');
  for (const register of await registrationsFor([])) register(program);
  return program.commands.map((command) => [command.name(), command.commands.map((sub) => sub.name())]);
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
