import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { changeSetFromRepo, secretsContext } from '../../../test/support/secrets-context.js';
import { registerScan } from '../../cli/commands/scan.js';
import { TollgateError } from '../../core/errors.js';
import {
  BASE64,
  base64Of,
  fakeChecksumToken,
  fakeHumanPassword,
  fakePem,
  fakeToken,
} from '../../secrets/sample-tokens.js';
import { secretsTool } from './index.js';
import { runPreCommit } from './pre-commit/run-pre-commit.js';
import { runScanCommand, type ScanCommandFlags } from './scan-command.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const pat = fakeChecksumToken('ghp_', 'scan-pat');
const npmToken = fakeChecksumToken('npm_', 'scan-npm');

function flags(partial: Partial<ScanCommandFlags> = {}): ScanCommandFlags {
  return { paths: [], staged: false, all: false, format: 'json', baselineWrite: false, ...partial };
}

async function scan(partial: Partial<ScanCommandFlags> = {}, cwd?: string) {
  let stdout = '';
  let stderr = '';
  const code = await runScanCommand(flags(partial), {
    cwd: cwd ?? repo!.root,
    env: repo!.env,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return {
    code,
    stdout,
    stderr,
    json: partial.format === undefined || partial.format === 'json' ? JSON.parse(stdout || '{}') : null,
  };
}

const locations = (json: { findings: Array<{ ruleId: string; path: string; line: number }> }) =>
  json.findings.map((f) => `${f.path}:${f.line} ${f.ruleId}`);

describe('tollgate scan', () => {
  test('scans explicit files and folders, honouring .gitignore, exit 1 with masked findings', async () => {
    repo = await createTempRepo({
      files: {
        '.gitignore': 'build/\n',
        'src/app.ts': `const token = "${pat}";\n`,
        'build/out.js': `var t="${npmToken}";\n`,
        'README.md': 'nothing here\n',
      },
    });
    const { code, json, stdout } = await scan({ paths: ['.'] });
    expect(code).toBe(1);
    expect(locations(json)).toEqual(['src/app.ts:1 github-pat']);
    expect(json.findings[0].masked).toBe('ghp_…');
    expect(stdout).not.toContain(pat);
    // A file named explicitly is scanned even when ignored.
    const explicit = await scan({ paths: ['build/out.js'] });
    expect(locations(explicit.json)).toEqual(['build/out.js:1 npm-access-token']);
  });

  test('exit 0 and an empty report when nothing is found', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'hello\n' } });
    const { code, json } = await scan({ paths: ['a.txt'] });
    expect(code).toBe(0);
    expect(json.findings).toEqual([]);
    expect(json.scannedFiles).toBe(1);
  });

  test('--staged scans the index, not the work tree, and only added lines', async () => {
    repo = await createTempRepo({ files: { 'a.env': `OLD=${npmToken}\n` } });
    await repo.write('a.env', `OLD=${npmToken}\nNEW=${pat}\n`);
    await repo.git('add', 'a.env');
    // Removed from the work tree after staging: the commit would still record it.
    await repo.write('a.env', `OLD=${npmToken}\n`);
    const { code, json } = await scan({ staged: true });
    expect(code).toBe(1);
    expect(locations(json)).toEqual(['a.env:2 github-pat']);
  });

  test('--all scans tracked and untracked files but not ignored ones', async () => {
    repo = await createTempRepo({ files: { '.gitignore': '*.log\n', 'tracked.env': `A=${pat}\n` } });
    await repo.write('untracked.env', `B=${npmToken}\n`);
    await repo.write('debug.log', `C=${fakeChecksumToken('ghp_', 'ignored')}\n`);
    const { json } = await scan({ all: true });
    expect(locations(json)).toEqual(['tracked.env:1 github-pat', 'untracked.env:1 npm-access-token']);
  });

  test('--history reports the lines each commit added, with the commit', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'start\n' } });
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('a.txt', `start\nsecond\ntoken=${pat}\n`);
    const added = await repo.commit('add token');
    await repo.write('a.txt', 'start\n');
    await repo.commit('remove token');
    const { code, json } = await scan({ history: `${base}..HEAD` });
    expect(code).toBe(1);
    expect(
      json.findings.map((f: { path: string; line: number; commit: string }) => [f.path, f.line, f.commit]),
    ).toEqual([['a.txt', 3, added]]);
  });

  test('--baseline-write records current findings so the next scan passes', async () => {
    repo = await createTempRepo({ files: { 'a.env': `A=${pat}\n` } });
    const write = await scan({ all: true, baselineWrite: true });
    expect(write.code).toBe(0);
    expect(write.stderr).toContain('wrote 1 finding fingerprint to .tollgate/secrets-baseline.json');
    const again = await scan({ all: true });
    expect(again.code).toBe(0);
    expect(again.json.baselined).toBe(1);
  });

  test('--baseline-audit lists entries whose finding is gone (exit 1); --baseline-prune removes them', async () => {
    repo = await createTempRepo({ files: { 'a.env': `A=${pat}\n`, 'b.env': `B=${npmToken}\n` } });
    await scan({ all: true, baselineWrite: true });
    await repo.write('b.env', 'B=from-the-vault\n');
    await repo.write('a.env', `# moved down\nA=${pat}\n`);
    const audit = await scan({ baselineAudit: true });
    expect(audit.code).toBe(1);
    expect(audit.json).toMatchObject({
      entries: 2,
      pruned: false,
      stale: [{ path: 'b.env', ruleId: 'npm-access-token' }],
    });
    expect(audit.stdout).not.toContain(npmToken);
    const markdown = await scan({ baselineAudit: true, format: 'markdown' });
    expect(markdown.stdout).toContain('1 no longer match a finding');
    expect(markdown.stdout).toContain('`b.env:1` secrets/npm-access-token');
    const prune = await scan({ baselineAudit: true, baselinePrune: true });
    expect(prune.code).toBe(0);
    expect(prune.json.pruned).toBe(true);
    const after = await scan({ baselineAudit: true });
    expect(after).toMatchObject({ code: 0, json: { entries: 1, stale: [] } });
    // The remaining entry still clears the moved secret.
    expect((await scan({ all: true })).code).toBe(0);
  });

  test('baseline audit flags that do not fit together are usage errors naming them', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'x\n' } });
    await expect(scan({ baselinePrune: true })).rejects.toThrow('--baseline-prune removes what --baseline-audit finds');
    await expect(scan({ baselineAudit: true, baselineWrite: true })).rejects.toThrow('give one');
    await expect(scan({ baselineAudit: true, staged: true })).rejects.toThrow('drop paths, --staged and --history');
    await expect(scan({ baselineAudit: true, format: 'sarif' })).rejects.toThrow('--format: --baseline-audit');
  });

  test('.gitleaksignore and secretlint allows clear findings, listed by --report-allowed in every format', async () => {
    const rc = 'rules:\n  - id: any\n    options:\n      allows: ["/^npm_/"]\n';
    repo = await createTempRepo({
      files: {
        'a.env': `A=${pat}\nB=${pat}\n`,
        'n.env': `N=${npmToken}\n`,
        '.gitleaksignore': 'a.env:github-pat:2\n',
        '.secretlintrc.yml': rc,
      },
    });
    const { code, json } = await scan({ all: true, reportAllowed: true });
    expect(code).toBe(1);
    expect(locations(json)).toEqual(['a.env:1 github-pat']);
    expect(json.allowed).toMatchObject([
      { kind: 'imported', path: 'a.env', line: 2, source: '.gitleaksignore:1' },
      { kind: 'imported', path: 'n.env', line: 1, reason: 'secretlint allows' },
    ]);
    const sarif = await scan({ all: true, reportAllowed: true, format: 'sarif' });
    expect(sarif.stdout).toContain('"kind": "external"');
  });

  // Tracked files are listed from git's index unchecked (POSIX); what is on disk when each is opened decides.
  test.skipIf(process.platform === 'win32')(
    '--all: tracked files changed in the work tree since they were staged are scanned as they are now',
    async () => {
      repo = await createTempRepo({
        files: { 'kept.env': 'x\n', 'linked.env': 'x\n', 'out.env': 'x\n', 'gone.env': `A=${pat}\n`, 'dir.env': 'x\n' },
      });
      const outside = await tempDir('tollgate-outside-');
      await writeFile(join(outside, 'secret.env'), `A=${pat}\n`);
      await writeFile(join(repo.root, 'kept.env'), `x\nA=${pat}\n`);
      await writeFile(join(repo.root, 'target.txt'), `B=${npmToken}\n`);
      await repo.remove('linked.env');
      await symlink(join(repo.root, 'target.txt'), join(repo.root, 'linked.env'));
      await repo.remove('out.env');
      await symlink(join(outside, 'secret.env'), join(repo.root, 'out.env'));
      await repo.remove('gone.env');
      await repo.remove('dir.env');
      await repo.write('dir.env/inner.env', `C=${pat}\n`);
      const { code, json } = await scan({ all: true });
      expect(code).toBe(1);
      expect([...new Set(json.findings.map((f: { path: string; line: number }) => `${f.path}:${f.line}`))]).toEqual([
        'dir.env/inner.env:1',
        'kept.env:2',
        'linked.env:1',
        'target.txt:1',
      ]);
      expect(json.skipped).toEqual([
        { path: 'out.env', reason: 'symlink_outside_repo', detail: 'symbolic link to a file outside the repository' },
      ]);
      expect(json.scannedFiles).toBe(4);
      await removeDir(outside);
    },
  );

  test('a symlink out of the repository is skipped with a note', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'x\n' } });
    const outside = await tempDir('tollgate-outside-');
    await writeFile(join(outside, 'secret.env'), `A=${pat}\n`);
    await symlink(join(outside, 'secret.env'), join(repo.root, 'link.env'));
    const { code, json } = await scan({ paths: ['link.env'] });
    expect(code).toBe(0);
    expect(json.skipped).toEqual([
      { path: 'link.env', reason: 'symlink_outside_repo', detail: 'symbolic link to a file outside the repository' },
    ]);
    await removeDir(outside);
  });

  test.each([
    [{ all: true, staged: true }, 'paths, --staged, --all and --history each pick what to scan: give only one'],
    [{ paths: ['nope.txt'] }, 'nope.txt: no such file or directory'],
  ])('usage error %#: %s', async (partial, message) => {
    repo = await createTempRepo({ files: { 'a.txt': 'x\n' } });
    const error = await scan(partial).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TollgateError);
    expect((error as TollgateError).message).toBe(message);
    expect((error as TollgateError).exitCode).toBe(2);
  });

  test('a bad secrets config section is a config error naming the field', async () => {
    repo = await createTempRepo({
      files: { 'tollgate.config.yaml': 'secrets:\n  scope: everything\n', 'a.txt': 'x\n' },
    });
    const error = (await scan({ paths: ['a.txt'] }).catch((e: unknown) => e)) as TollgateError;
    expect(error).toBeInstanceOf(TollgateError);
    expect(error.code).toBe('config');
    expect([error.message, ...error.details].join('\n')).toContain('secrets.scope');
  });

  test('markdown and sarif formats', async () => {
    repo = await createTempRepo({ files: { 'a.env': `A=${pat}\n` } });
    const markdown = await scan({ paths: ['a.env'], format: 'markdown' });
    expect(markdown.stdout).toContain(
      '| `a.env:1:3` | `secrets/github-pat` | GitHub personal access token (ghp_…) | `ghp_…` |',
    );
    const sarif = JSON.parse((await scan({ paths: ['a.env'], format: 'sarif' })).stdout);
    expect(sarif.runs[0].results[0].ruleId).toBe('secrets/github-pat');
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.region).toEqual({ startLine: 1, startColumn: 3 });
  });

  test('test fixtures are listed, counted and marked in every format but do not make the scan exit 1', async () => {
    const fixturePassword = fakeHumanPassword('scan-fixture');
    repo = await createTempRepo({ files: { 'tests/test_db.py': `db_password = "${fixturePassword}"\n` } });
    const { code, json } = await scan({ paths: ['.'] });
    expect(code).toBe(0);
    expect(json.findings).toMatchObject([{ path: 'tests/test_db.py', severity: 'low', fixture: true }]);
    expect(json).toMatchObject({ blocking: 0, fixtures: { mode: 'report', count: 1, shown: 1 } });
    expect(json.notes.join(' ')).toContain('1 finding classified as test fixture (not blocking');
    const markdown = await scan({ paths: ['.'], format: 'markdown' });
    expect(markdown.stdout).toContain('1 secret found (1 classified as test fixture, not blocking)');
    const sarif = JSON.parse((await scan({ paths: ['.'], format: 'sarif' })).stdout);
    expect(sarif.runs[0].results[0]).toMatchObject({ level: 'note', properties: { fixture: true } });
    expect((await scan({ paths: ['.'], fixtures: 'block' })).code).toBe(1);
    const ignored = await scan({ paths: ['.'], fixtures: 'ignore' });
    expect([ignored.code, ignored.json.findings, ignored.json.fixtures.count]).toEqual([0, [], 1]);
    await repo.write('tollgate.config.yaml', 'secrets:\n  fixtures: block\n');
    await repo.commit('fixtures block');
    expect((await scan({ paths: ['.'] })).code).toBe(1);
    await repo.write('tollgate.config.yaml', 'secrets:\n  fixtures: maybe\n');
    await repo.commit('bad fixtures mode');
    await expect(scan({ paths: ['.'] })).rejects.toThrow(/secrets\.fixtures/);
  });
});

describe('command line', () => {
  test.each([
    [['scan', 'src', 'config/.env'], { paths: ['src', 'config/.env'] }],
    [['scan', '--staged'], { staged: true }],
    [
      ['scan', '--all', '--format', 'sarif', '--output', 'secrets.sarif'],
      { all: true, format: 'sarif', output: 'secrets.sarif' },
    ],
    [['scan', '--history', 'origin/main..HEAD', '--format', 'json'], { history: 'origin/main..HEAD', format: 'json' }],
    [['scan', '--all', '--baseline-write'], { all: true, baselineWrite: true }],
    [['scan', '--all', '--fixtures', 'block'], { all: true, fixtures: 'block' }],
  ])('%j parses (each --help example)', async (argv, expected) => {
    const program = new Command().exitOverride();
    let parsed: unknown;
    registerScan(program);
    const command = program.commands[0]!;
    command.action((paths: string[], raw: Record<string, unknown>) => {
      parsed = { ...raw, paths };
    });
    await program.parseAsync(argv, { from: 'user' });
    expect(parsed).toMatchObject(expected);
    expect(command.helpInformation()).toBeDefined();
  });
});

describe('canary: no output channel carries a secret', () => {
  test('scan reports in every format, the baseline, stderr, the validator result and the hook message hold no planted secret', async () => {
    const password = fakeHumanPassword('canary');
    const awsSecret = fakeToken('', 40, BASE64, 'canary-aws');
    const pem = fakePem('RSA PRIVATE KEY', 'canary-pem');
    const dbPassword = fakeToken('', 20, undefined, 'canary-db');
    const dockerAuth = base64Of(`deploy:${password}`);
    const canaries = [pat, npmToken, password, awsSecret, pem, dbPassword, dockerAuth];
    // A PEM block starts with its public header: look for its key material instead.
    const pemBody = pem.split('\n')[1]!;
    const files = {
      'app.env': `GITHUB_TOKEN=${pat}\nNPM_TOKEN=${npmToken}\nDB_PASSWORD=${password}\naws_secret_access_key=${awsSecret}\n`,
      'keys/id_rsa': `${pem}\n`,
      'src/db.ts': `export const url = "postgres://app:${dbPassword}@db.internal:5432/app";\n`,
      '.docker/config.json': JSON.stringify({ auths: { 'r.internal': { auth: dockerAuth } } }),
    };
    repo = await createTempRepo({ files: { 'README.md': 'x\n' } });
    for (const [path, content] of Object.entries(files)) await repo.write(path, content);
    const outputs: string[] = [];
    for (const format of ['markdown', 'json', 'sarif', 'github'] as const) {
      const result = await scan({ all: true, format });
      expect(result.code).toBe(1);
      outputs.push(result.stdout, result.stderr);
    }
    const json = JSON.parse(outputs[2]!);
    expect(json.findings.length).toBe(7);
    expect(outputs[6]!.match(/^::error /gm)).toHaveLength(7);
    const write = await scan({ all: true, baselineWrite: true });
    outputs.push(write.stdout, write.stderr);
    const { readFile } = await import('node:fs/promises');
    outputs.push(await readFile(join(repo.root, '.tollgate/secrets-baseline.json'), 'utf8'));
    await repo.remove('.tollgate');
    const validator = await secretsTool.run(secretsContext(repo.root, await changeSetFromRepo(repo.root, repo.env)));
    expect(validator.findings.length).toBe(7);
    outputs.push(JSON.stringify(validator));
    await repo.git('add', '-A');
    const hook = await runPreCommit({ cwd: repo.root, env: repo.env });
    expect(hook.exitCode).toBe(1);
    outputs.push(hook.message);
    const all = outputs.join('\n');
    for (const canary of canaries) {
      expect(all.includes(canary), `a canary leaked: ${canary.slice(0, 4)}…`).toBe(false);
    }
    // Not even a long prefix of one.
    for (const canary of [pat, npmToken, password, awsSecret, pemBody, dbPassword, dockerAuth]) {
      expect(all.includes(canary.slice(0, 8)), `a prefix leaked: ${canary.slice(0, 4)}…`).toBe(false);
    }
  });
});
