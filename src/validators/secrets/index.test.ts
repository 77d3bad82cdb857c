import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../../../test/support/git-repo.js';
import { changeSetFromRepo, secretsContext } from '../../../test/support/secrets-context.js';
import { fakeChecksumToken, fakeHumanPassword, fakeToken, wrongChecksumToken } from '../../secrets/sample-tokens.js';
import { secretsTool } from './index.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const oldToken = fakeChecksumToken('ghp_', 'old-token');
const newToken = fakeChecksumToken('ghp_', 'new-token');
const password = fakeHumanPassword('db');

async function run(options: unknown = {}, input = {}) {
  repo ??= await createTempRepo({ files: { 'config/app.env': `GITHUB_TOKEN=${oldToken}\nLOG_LEVEL=info\n` } });
  const changeSet = await changeSetFromRepo(repo.root, repo.env);
  return secretsTool.run(secretsContext(repo.root, changeSet, options, input));
}

async function change(files: Record<string, string>) {
  repo = await createTempRepo({ files: { 'config/app.env': `GITHUB_TOKEN=${oldToken}\nLOG_LEVEL=info\n` } });
  for (const [path, content] of Object.entries(files)) await repo.write(path, content);
}

describe('secrets validator', () => {
  test('declares itself as the secrets tool with safe defaults', () => {
    expect(secretsTool.name).toBe('secrets');
    expect(secretsTool.configKey).toBe('secrets');
    expect(secretsTool.permissions).toEqual([]);
    expect(secretsTool.enabledByDefault).toBe(true);
    expect(secretsTool.optionsSchema.parse(undefined)).toEqual({
      scope: 'added',
      paths: [],
      rules: [],
      baseline: '.tollgate/secrets-baseline.json',
      encryptedKeys: 'report',
      fixtures: 'report',
      redactAfterAttempts: false,
      verify: false,
      verifyEndpoints: {},
      verifyLimit: 50,
    });
  });

  test('fails on a secret the change adds, and only on added lines by default', async () => {
    await change({
      'config/app.env': `GITHUB_TOKEN=${oldToken}\nLOG_LEVEL=debug\nNEW_TOKEN=${newToken}\n`,
      'src/db.ts': `export const db = { password: "${password}" };\n`,
    });
    const result = await run();
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => [f.ruleId, f.path, f.line, f.title])).toEqual([
      ['github-pat', 'config/app.env', 3, 'GitHub personal access token (ghp_…)'],
      ['generic-password', 'src/db.ts', 1, 'Password in an assignment'],
    ]);
    expect(result.summary).toContain('config/app.env:3:11 secrets/github-pat');
    const text = JSON.stringify(result);
    for (const secret of [oldToken, newToken, password]) expect(text).not.toContain(secret);
  });

  test('a test fixture passes with a count; a real token in a test folder and secrets.fixtures: block still fail', async () => {
    await change({ 'tests/test_db.py': `db_password = "${password}"\n` });
    const passed = await run();
    expect(passed.status).toBe('passed');
    expect(passed.findings).toEqual([]);
    expect(passed.summary).toContain('1 finding classified as test fixture (not blocking');
    expect(passed.details?.fixtures).toMatchObject({ mode: 'report', count: 1, list: [{ path: 'tests/test_db.py' }] });
    expect((await run({ fixtures: 'block' })).status).toBe('failed');
    expect((await run({ fixtures: 'ignore' })).summary).toContain('not shown (secrets.fixtures: ignore)');

    await repo?.cleanup();
    await change({ 'tests/test_api.py': `token = "${newToken}"\n` });
    expect((await run()).status).toBe('failed');
  });

  test('scope "files" also reports secrets already in changed files, marked not new', async () => {
    await change({ 'config/app.env': `GITHUB_TOKEN=${oldToken}\nLOG_LEVEL=debug\n` });
    const result = await run({ scope: 'files' });
    expect(result.status).toBe('failed');
    const secrets = (result.details?.secrets ?? []) as Array<{ line: number; isNew: boolean; masked: string }>;
    expect(secrets.map((s) => [s.line, s.isNew, s.masked])).toEqual([[1, false, 'ghp_…']]);
  });

  test('finding ids are stable across line moves (anchored on the fingerprint)', async () => {
    await change({ 'config/app.env': `GITHUB_TOKEN=${oldToken}\nNEW=${newToken}\n` });
    const first = await run();
    await repo!.write('config/app.env', `GITHUB_TOKEN=${oldToken}\n\n\nNEW=${newToken}\n`);
    const second = await run();
    expect(second.findings[0]!.line).toBe(4);
    expect(second.findings[0]!.id).toBe(first.findings[0]!.id);
  });

  test.each([
    ['a wrong checksum', { 'a.env': `TOKEN=${wrongChecksumToken('ghp_', 'w')}\n` }, {}],
    [
      'a path allowlisted in secrets.paths',
      { 'test/fixtures/a.env': `TOKEN=${newToken}\n` },
      { paths: ['test/fixtures/**'] },
    ],
    ['a placeholder', { 'a.env': `DB_PASSWORD=\${DB_PASSWORD}\nAPI_KEY=your-api-key\n` }, {}],
  ])('passes on %s', async (_name, files, options) => {
    await change(files);
    const result = await run(options);
    expect(result.status).toBe('passed');
    expect(result.findings).toEqual([]);
  });

  test('a custom rule from config finds its own format', async () => {
    const token = fakeToken('acme_', 32);
    await change({ 'deploy.yaml': `acme: ${token}\n` });
    const result = await run({
      rules: [{ id: 'acme-key', pattern: '\\bacme_[A-Za-z0-9]{32}\\b', keywords: ['acme_'] }],
    });
    expect(result.findings.map((f) => f.ruleId)).toEqual(['acme-key']);
  });

  test('an inline tollgate:allow that the change adds does not clear a high secret: it needs a person', async () => {
    await change({ 'a.env': `TOKEN=${newToken} # tollgate:allow\n` });
    const result = await run();
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => [f.ruleId, f.path, f.line])).toEqual([['github-pat', 'a.env', 1]]);
    expect(result.findings[0]!.body).toContain("Suppression added by this change: needs a person's waiver");
    expect(result.summary).toContain('a suppression this gate does not accept');
    expect(result.details?.secrets).toMatchObject([{ suppressionRejected: 'inline-added' }]);
  });

  test('an inline tollgate:allow that predates the change still applies, and is listed', async () => {
    repo = await createTempRepo({
      files: {
        'config/app.env': `GITHUB_TOKEN=${oldToken}\nLOG_LEVEL=info\n`,
        'a.env': `TOKEN=${newToken} # tollgate:allow\n`,
      },
    });
    await repo.write('a.env', `TOKEN=${newToken} # tollgate:allow\nOTHER=1\n`);
    const result = await run({ scope: 'files' });
    expect(result.status).toBe('passed');
    expect(result.summary).toContain('Suppressions applied (1):');
    expect(result.summary).toContain('a.env:1 secrets/github-pat (critical, ghp_…) cleared by `tollgate:allow`');
    expect(result.details?.suppressions).toMatchObject([{ kind: 'inline', path: 'a.env', line: 1 }]);
  });

  test('an allow on the comment line above that predates the change applies, with its reason listed', async () => {
    repo = await createTempRepo({
      files: { 'a.py': `# tollgate:allow revoked test fixture\nTOKEN = "${newToken}"\n` },
    });
    await repo.write('a.py', `# tollgate:allow revoked test fixture\nTOKEN = "${newToken}"\nOTHER = 1\n`);
    const result = await run({ scope: 'files' });
    expect(result.status).toBe('passed');
    expect(result.summary).toContain(
      'a.py:2 secrets/github-pat (critical, ghp_…) cleared by `tollgate:allow` ("revoked test fixture")',
    );
    expect(result.details?.suppressions).toMatchObject([{ kind: 'inline', line: 2, reason: 'revoked test fixture' }]);
  });

  test('a new high secret under an old allow comment, or a new allow comment above an old one, needs a person', async () => {
    repo = await createTempRepo({
      files: { 'a.py': `# tollgate:allow fixture\nX = 1\n`, 'b.py': `TOKEN = "${newToken}"\n` },
    });
    await repo.write('a.py', `# tollgate:allow fixture\nTOKEN = "${newToken}"\n`);
    await repo.write('b.py', `# pragma: allowlist nextline secret\nTOKEN = "${newToken}"\n`);
    const result = await run({ scope: 'files' });
    expect(result.status).toBe('failed');
    expect(result.details?.secrets).toMatchObject([
      { path: 'a.py', suppressionRejected: 'inline-added' },
      { path: 'b.py', suppressionRejected: 'inline-added' },
    ]);
  });

  test('an inline allow the change adds still clears a medium finding, and is listed', async () => {
    await change({ 'src/pay.ts': `export const key = "${fakeToken('sk_test_', 24)}"; // tollgate:allow\n` });
    const result = await run();
    expect(result.status).toBe('passed');
    expect(result.details?.suppressions).toMatchObject([
      { kind: 'inline', ruleId: 'stripe-test-secret-key', severity: 'low' },
    ]);
  });

  async function baselineFor(path: string, options: object = {}) {
    const failed = await run(options);
    const fingerprint = ((failed.details?.secrets ?? []) as Array<{ fingerprint: string }>)[0]!.fingerprint;
    await repo!.write(
      path,
      JSON.stringify({ version: 1, findings: [{ fingerprint, ruleId: 'github-pat', path: 'a.env', line: 1 }] }),
    );
  }

  test('a baseline in the ignored .tollgate/ folder does not clear a high secret in the gate', async () => {
    await change({ 'a.env': `TOKEN=${newToken}\n` });
    await baselineFor('.tollgate/secrets-baseline.json');
    const result = await run();
    expect(result.status).toBe('failed');
    expect(result.findings[0]!.body).toContain('Baseline outside the reviewed repository');
  });

  test('a baseline committed in the repository (or in the diff) clears it, and is listed', async () => {
    const options = { baseline: 'security/secrets-baseline.json' };
    await change({ 'a.env': `TOKEN=${newToken}\n` });
    await baselineFor('security/secrets-baseline.json', options);
    const result = await run(options);
    expect(result.status).toBe('passed');
    expect(result.summary).toContain('1 baselined finding ignored');
    expect(result.summary).toContain('cleared by baseline security/secrets-baseline.json');
  });

  test('an allow the change adds, with a committed baseline entry for it, is cleared by the baseline', async () => {
    const options = { baseline: 'security/secrets-baseline.json' };
    await change({ 'a.env': `TOKEN=${newToken} # tollgate:allow\n` });
    await baselineFor('security/secrets-baseline.json', options);
    const result = await run(options);
    expect(result.status).toBe('passed');
    expect(result.details?.suppressions).toMatchObject([{ kind: 'baseline', path: 'a.env' }]);
  });

  test('a .gitleaksignore entry clears the finding at its place in the gate when reviewed, and is listed', async () => {
    await change({ 'a.env': `TOKEN=${newToken}\n`, '.gitleaksignore': 'a.env:github-pat:1\n' });
    const result = await run();
    expect(result.status).toBe('passed');
    expect(result.details?.suppressions).toMatchObject([
      { kind: 'imported', path: 'a.env', line: 1, source: '.gitleaksignore:1', reason: 'gitleaks rule github-pat' },
    ]);
    expect(result.summary).toContain('cleared by .gitleaksignore:1');
  });

  test('an imported ignore file git does not track does not clear a high secret in the gate', async () => {
    await change({ 'a.env': `TOKEN=${newToken}\n`, '.tollgate/gitleaksignore': 'a.env:github-pat:1\n' });
    const result = await run({ gitleaksIgnore: '.tollgate/gitleaksignore' });
    expect(result.status).toBe('failed');
    expect(result.findings[0]!.body).toContain('Imported suppression outside the reviewed repository');
  });

  test('secretlint allows clear a matching secret', async () => {
    const rc = { rules: [{ id: 'preset', rules: [{ id: 'r', options: { allows: [newToken.slice(4, 20)] } }] }] };
    await change({ 'a.env': `TOKEN=${newToken}\n`, '.secretlintrc.json': JSON.stringify(rc) });
    const result = await run();
    expect(result.status).toBe('passed');
    expect(result.details?.suppressions).toMatchObject([{ kind: 'imported', reason: 'secretlint allows' }]);
    expect(JSON.stringify(result)).not.toContain(newToken);
  });

  test('a broken .gitleaksignore is an error result naming its line, not a pass', async () => {
    await change({ 'a.env': `TOKEN=${newToken}\n`, '.gitleaksignore': 'nonsense\n' });
    const result = await run();
    expect(result.status).toBe('error');
    expect(result.summary).toContain('.gitleaksignore:1: not a gitleaks fingerprint');
  });

  test('a UTF-16 file (binary to git) that the change adds is decoded and scanned whole; a real binary for its printable runs', async () => {
    await change({});
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`$token = "${newToken}"\r\n`, 'utf16le')]);
    await writeFile(join(repo!.root, 'deploy.ps1'), utf16);
    await writeFile(join(repo!.root, 'blob.dat'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3, 0, 0xff]));
    const result = await run();
    expect(result.status).toBe('failed');
    expect(result.findings.map((finding) => `${finding.path}:${finding.line}`)).toEqual(['deploy.ps1:1']);
    expect(result.details?.skipped).toEqual([]);
    expect(result.details?.scannedAsBinary).toEqual(['blob.dat']);
  });

  test('an unreadable gitleaks config is an error result with the reason, not a crash', async () => {
    await change({ 'a.env': 'X=1\n' });
    const result = await run({ gitleaksConfig: 'missing.toml' });
    expect(result.status).toBe('error');
    expect(result.summary).toContain('secrets.gitleaksConfig: cannot read "missing.toml" (ENOENT)');
  });

  test('explicit paths in the call input scan those files whole', async () => {
    await change({ 'notes/todo.md': `token: ${newToken}\n` });
    const result = await run({}, { paths: ['notes'] });
    expect(result.findings.map((f) => [f.ruleId, f.path])).toEqual([['github-pat', 'notes/todo.md']]);
  });

  test.each([
    [['../outside'], 'paths: "../outside" is outside the repository'],
    [['missing.txt'], 'paths: "missing.txt" does not exist.'],
  ])('explicit paths %j are invalid input', async (paths, message) => {
    await change({ 'a.txt': 'x\n' });
    const result = await run({}, { paths });
    expect(result.status).toBe('invalid_input');
    expect(result.summary).toContain(message);
  });

  test('an explicit path through a symbolic link to a folder outside the repository is invalid input', async () => {
    await change({ 'a.txt': 'x\n' });
    const outside = await tempDir('tollgate-outside-');
    await writeFile(join(outside, 'secret.txt'), `token: ${newToken}\n`);
    await symlink(outside, join(repo!.root, 'link'));
    const result = await run({}, { paths: ['link/secret.txt'] });
    expect(result.status).toBe('invalid_input');
    expect(result.summary).toContain('paths: "link/secret.txt" is outside the repository');
    await removeDir(outside);
  });

  test('explicit paths scan a committed, unchanged file', async () => {
    await change({ 'a.txt': 'x\n' });
    await repo!.write('committed.txt', `token: ${newToken}\n`);
    await repo!.commit('add committed.txt');
    const result = await run({}, { paths: ['committed.txt'] });
    expect(result.findings.map((f) => [f.ruleId, f.path])).toEqual([['github-pat', 'committed.txt']]);
  });

  test('secrets.verify reaches the verification step (loaded only then): with the network denied, a note says so', async () => {
    await change({ 'config/app.env': `GITHUB_TOKEN=${oldToken}\nNEW_TOKEN=${newToken}\n` });
    const result = await run({ verify: true });
    expect(result.status).toBe('failed');
    expect(result.details?.verifyNotes).toEqual(['verification off: permissions.network is deny']);
    expect((await run()).details?.verifyNotes).toBeUndefined();
  });
});
