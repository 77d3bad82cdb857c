import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createRunnerFiles, parseOutputs, runActionMain, runnerEnvironment } from '../support/action-runner.js';
import { createTempRepo, removeDir, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';

/**
 * History scans read what git stores: a file with one NUL byte committed and deleted in the next commit, and a token
 * in a commit message, fail `run`, `scan --history` and the GitHub Action's `run` and `scan` (its committed bundle),
 * each on the secret itself. Each case passed before ("No secrets", exit 0).
 */
const CONFIG = 'validation:\n  static_analysis: { enabled: false }\n  code_review: { enabled: false }\n';
const token = (seed: string) => fakeChecksumToken('ghp_', `history-blobs-${seed}`);
/** One NUL byte ahead of the secret: git calls the file binary, and `git log -p` shows no line of it. */
const withNul = (seed: string) => Buffer.concat([Buffer.from('\0'), Buffer.from(`TOKEN=${token(seed)}\n`)]);

interface Finding {
  ruleId: string;
  path: string;
  line: number;
}
interface RunReport {
  verdict: string;
  tools: Array<{
    name: string;
    status: string;
    summary: string;
    findings: Finding[];
    details?: { history?: { scannedAsBinary?: string[] } };
  }>;
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function repoOnBranch(): Promise<{ repo: TempRepo; base: string }> {
  const repo = await createTempRepo({ files: { 'tollgate.config.yaml': CONFIG, 'README.md': '# app\n' } });
  cleanups.push(() => repo.cleanup());
  const base = (await repo.git('rev-parse', 'HEAD')).trim();
  await repo.git('checkout', '--quiet', '-b', 'feature');
  return { repo, base };
}

async function gate(repo: TempRepo) {
  const result = await runCli(['run', '--format', 'json'], { cwd: repo.root, env: repo.env });
  const report = JSON.parse(result.stdout) as RunReport;
  return { exitCode: result.exitCode, stdout: result.stdout, secrets: report.tools.find((t) => t.name === 'secrets')! };
}

async function scanHistory(repo: TempRepo, range: string) {
  const result = await runCli(['scan', '--history', range, '--format', 'json'], { cwd: repo.root, env: repo.env });
  return {
    exitCode: result.exitCode,
    stdout: result.stdout,
    findings: (JSON.parse(result.stdout) as { findings: Finding[] }).findings,
  };
}

/** The Action as the runner runs it, on a pull request whose base is `base` (input `base`, no event file). */
async function action(repo: TempRepo, inputs: Record<string, string>) {
  const files = await createRunnerFiles();
  cleanups.push(() => removeDir(files.dir));
  const result = await runActionMain(repo.root, { ...repo.env, ...runnerEnvironment(files, repo.root) }, inputs, '');
  return {
    ...result,
    outputs: parseOutputs(readFileSync(files.output, 'utf8')),
    summary: readFileSync(files.summary, 'utf8'),
  };
}

describe('a file with one NUL byte, committed and deleted in the next commit', () => {
  let repo: TempRepo;
  let base: string;
  let added: string;
  beforeAll(async () => {
    ({ repo, base } = await repoOnBranch());
    await repo.write('src/app.py', 'print("hi")\n');
    await repo.write('keys.dat', withNul('nul'));
    added = await repo.commit('app and keys');
    await repo.git('rm', '--quiet', 'keys.dat');
    await repo.commit('remove keys');
  }, 60_000);

  test('`run` fails on the secret in that commit, and lists the blob as scanned for printable text', async () => {
    const { exitCode, stdout, secrets } = await gate(repo);
    expect(exitCode).toBe(1);
    expect(secrets.status).toBe('failed');
    expect(secrets.findings.map(({ ruleId, path, line }) => ({ ruleId, path, line }))).toEqual([
      { ruleId: 'github-pat', path: 'keys.dat', line: 1 },
    ]);
    expect(secrets.summary).toContain(`in commit ${added.slice(0, 12)}`);
    expect(secrets.details?.history?.scannedAsBinary).toEqual([`${added.slice(0, 12)}:keys.dat`]);
    expect(stdout).not.toContain(token('nul'));
  }, 60_000);

  test('`scan --history` fails on it', async () => {
    const { exitCode, stdout, findings } = await scanHistory(repo, `${base}..HEAD`);
    expect(exitCode).toBe(1);
    expect(findings.map(({ ruleId, path, line }) => ({ ruleId, path, line }))).toEqual([
      { ruleId: 'github-pat', path: 'keys.dat', line: 1 },
    ]);
    expect(stdout).not.toContain(token('nul'));
  }, 60_000);

  test("the Action's `run` and `scan` fail on it", async () => {
    const run = await action(repo, { base });
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.outputs).toMatchObject({ verdict: 'failed', findings: '1' });
    const report = JSON.parse(readFileSync(run.outputs['report-path']!, 'utf8')) as RunReport;
    const secrets = report.tools.find((t) => t.name === 'secrets')!;
    expect(secrets.findings.map(({ ruleId, path }) => `${ruleId} ${path}`)).toEqual(['github-pat keys.dat']);
    const scan = await action(repo, { command: 'scan', base });
    expect(scan.exitCode, scan.stderr).toBe(1);
    expect(scan.outputs).toMatchObject({ verdict: 'failed', findings: '1' });
    expect(scan.stdout).toMatch(/^::error file=keys\.dat,line=1,col=\d+,title=secrets\/github-pat/m);
    for (const text of [run.stdout, run.summary, scan.stdout, scan.summary]) expect(text).not.toContain(token('nul'));
  }, 120_000);
});

describe('a NUL-byte file still in the tree', () => {
  test("the Action's `scan` of the pull request fails on it", async () => {
    const { repo, base } = await repoOnBranch();
    await repo.write('keys.dat', withNul('kept'));
    await repo.commit('keys');
    const scan = await action(repo, { command: 'scan', base });
    expect(scan.exitCode, scan.stderr).toBe(1);
    expect(scan.outputs).toMatchObject({ verdict: 'failed', findings: '1' });
    expect(scan.stdout).toMatch(/^::error file=keys\.dat,line=1,col=\d+,title=secrets\/github-pat/m);
    expect(scan.stdout).not.toContain(token('kept'));
  }, 120_000);
});

describe('a token in a commit message', () => {
  test('`run` fails with the finding at `commit <id> message`, saying how to reword it', async () => {
    const { repo } = await repoOnBranch();
    await repo.write('src/app.py', 'print("hi")\n');
    const commit = await repo.commit(`app\n\ndeployed with GITHUB_TOKEN=${token('message')}`);
    const { exitCode, stdout, secrets } = await gate(repo);
    expect(exitCode).toBe(1);
    expect(secrets.status).toBe('failed');
    expect(secrets.findings.map(({ ruleId, path, line }) => ({ ruleId, path, line }))).toEqual([
      { ruleId: 'github-pat', path: `commit ${commit} message`, line: 3 },
    ]);
    expect(secrets.summary).toContain(`in the message of commit ${commit.slice(0, 12)}, line 3`);
    expect(stdout).toContain('`reword`');
    expect(stdout).not.toContain(token('message'));
  }, 60_000);
});
