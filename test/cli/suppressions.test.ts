import { afterEach, describe, expect, test } from 'vitest';
import { fakeChecksumToken } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';
import { sarifProblems } from '../support/sarif-checks.js';

/**
 * Self-service suppression in the gate: a change that adds a critical secret may not clear it by itself, neither with
 * an inline `tollgate:allow` nor with `tollgate scan --baseline-write` into the git-ignored `.tollgate/`. A suppression
 * that a person could have reviewed (an allow already in the code, a baseline committed in the repository) applies,
 * and is listed in the report.
 */
const token = fakeChecksumToken('ghp_', 'suppression-cli');

let repo: TempRepo;
afterEach(async () => {
  await repo?.cleanup();
});

async function setup(files: Record<string, string> = {}, config = '') {
  repo = await createTempRepo({ files: { 'README.md': '# demo\n', 'tollgate.config.yaml': config, ...files } });
}

const gate = (format = 'markdown') =>
  runCli(['run', '--only', 'secrets', '--format', format], { cwd: repo.root, env: repo.env });

describe('suppressions in tollgate run', () => {
  test('a tollgate:allow added by the change does not clear a critical secret', async () => {
    await setup();
    await repo.write('app.env', `GITHUB_TOKEN=${token} # tollgate:allow\n`);
    const result = await gate();
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain("Suppression added by this change: needs a person's waiver");
    expect(result.stdout).not.toContain(token);
  });

  test('a baseline written into the ignored .tollgate/ does not clear it either', async () => {
    await setup();
    await repo.write('app.env', `GITHUB_TOKEN=${token}\n`);
    const write = await runCli(['scan', '--all', '--baseline-write'], { cwd: repo.root, env: repo.env });
    expect(write.exitCode).toBe(0);
    const result = await gate();
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('Baseline outside the reviewed repository');
  });

  test('a baseline the change writes to a repository path is pending policy; in the base it clears, and is listed', async () => {
    await setup({}, 'secrets:\n  baseline: security/secrets-baseline.json\n');
    await repo.write('app.env', `GITHUB_TOKEN=${token}\n`);
    const write = await runCli(['scan', '--all', '--baseline-write'], { cwd: repo.root, env: repo.env });
    expect(write.stderr).toContain('the gate applies it once a person accepts this edit or it is merged into the base');
    const pending = await gate('json');
    expect(pending.exitCode).toBe(1);
    const tools = JSON.parse(pending.stdout).tools as Array<{ name: string; status: string; findings: unknown[] }>;
    expect(tools.find((tool) => tool.name === 'secrets')?.status).toBe('failed');
    expect(tools.find((tool) => tool.name === 'policy')?.findings).toMatchObject([
      { severity: 'high', path: 'security/secrets-baseline.json' },
    ]);
    // Merged into the base (pushed upstream and fetched), it is the base's policy: at the base a person names, since a
    // fetch alone moves no base a run here already pinned (docs/gate.md, "The base").
    await repo.git('add', 'security/secrets-baseline.json');
    await repo.git('commit', '--quiet', '-m', 'baseline reviewed');
    await repo.publish();
    const result = await runCli(['run', '--only', 'secrets', '--format', 'json', '--base', 'origin/main'], {
      cwd: repo.root,
      env: repo.env,
    });
    expect(result.exitCode).toBe(0);
    const secrets = JSON.parse(result.stdout).tools.find((tool: { name: string }) => tool.name === 'secrets');
    expect(secrets.summary).toContain('Suppressions applied (1):');
    expect(secrets.summary).toContain('cleared by baseline security/secrets-baseline.json');
    expect(secrets.details.suppressions).toMatchObject([{ kind: 'baseline', path: 'app.env', severity: 'critical' }]);
  });

  test('an allow that predates the change still applies, and is listed', async () => {
    await setup({ 'app.env': `GITHUB_TOKEN=${token} # tollgate:allow\n` }, 'secrets:\n  scope: files\n');
    await repo.write('app.env', `GITHUB_TOKEN=${token} # tollgate:allow\nLOG_LEVEL=debug\n`);
    const result = await gate();
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('cleared by `tollgate:allow`');
  });
});

describe('tollgate scan --report-allowed', () => {
  test('lists what inline allows cleared, with their reasons, in every format; SARIF marks them suppressed', async () => {
    await setup({
      'a.py': `# tollgate:allow revoked fixture\nTOKEN = "${token}"\n`,
      'b.env': `OTHER=${fakeChecksumToken('ghp_', 'suppression-cli-2')} # pragma: allowlist secret\n`,
    });
    const scan = (...args: string[]) => runCli(['scan', '--all', ...args], { cwd: repo.root, env: repo.env });
    const plain = await scan();
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).not.toContain('Allowed');

    const markdown = await scan('--report-allowed');
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toContain('Allowed (2):');
    expect(markdown.stdout).toContain(
      'a.py:2 secrets/github-pat (critical, ghp_…) cleared by `tollgate:allow` ("revoked fixture")',
    );
    expect(markdown.stdout).toContain(
      'b.env:1 secrets/github-pat (critical, ghp_…) cleared by `pragma: allowlist secret`',
    );

    const json = JSON.parse((await scan('--report-allowed', '--format', 'json')).stdout);
    expect(json.allowed).toMatchObject([
      { kind: 'inline', path: 'a.py', line: 2, reason: 'revoked fixture' },
      { kind: 'inline', path: 'b.env', line: 1, source: 'pragma: allowlist secret' },
    ]);
    const sarifText = (await scan('--report-allowed', '--format', 'sarif')).stdout;
    expect(sarifProblems(sarifText)).toEqual([]);
    const results = JSON.parse(sarifText).runs[0].results;
    expect(results.map((result: { suppressions: unknown }) => result.suppressions)).toEqual([
      [{ kind: 'inSource', justification: 'revoked fixture' }],
      [{ kind: 'inSource', justification: 'cleared by pragma: allowlist secret' }],
    ]);
    for (const text of [markdown.stdout, sarifText, JSON.stringify(json)]) expect(text).not.toContain(token);
  });
});
