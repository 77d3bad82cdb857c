import { afterEach, describe, expect, test } from 'vitest';
import { fakeChecksumToken, fakePem } from '../../src/secrets/sample-tokens.js';
import { createTempRepo, type TempRepo } from '../support/git-repo.js';
import { runCli } from '../support/run-cli.js';
import { sarifProblems } from '../support/sarif-checks.js';

/** `tollgate scan --history` through the built CLI, on real repositories. */
let repo: TempRepo;
afterEach(() => repo.cleanup());

interface HistoryFinding {
  ruleId: string;
  path: string;
  line: number;
  commit: string;
  fingerprint: string;
}

async function scanHistory(range: string, extra: string[] = []) {
  const result = await runCli(['scan', '--history', range, '--format', 'json', ...extra], {
    cwd: repo.root,
    env: repo.env,
  });
  expect(result.stderr).toBe('');
  const report = JSON.parse(result.stdout) as { findings: HistoryFinding[]; skipped: unknown[] };
  return { result, report, places: report.findings.map((f) => `${f.commit.slice(0, 12)} ${f.path}:${f.line}`).sort() };
}

const token = (seed: string) => fakeChecksumToken('ghp_', `scan-history-${seed}`);
const short = (commit: string) => commit.slice(0, 12);

describe('tollgate scan --history', () => {
  test('a secret added and later removed is found where it arrived; one kept across commits is reported once', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    await repo.write('src/config.ts', `export const a = 1;\nexport const t = "${token('removed')}";\n`);
    const added = await repo.commit('add config');
    await repo.write('src/config.ts', 'export const a = 1;\n');
    await repo.commit('remove it');
    await repo.write('src/keep.ts', `// keep\nconst kept = "${token('kept')}";\n`);
    const kept = await repo.commit('kept');
    for (let i = 0; i < 3; i++) {
      await repo.write('src/keep.ts', `// keep ${i}\nconst kept = "${token('kept')}";\nconst n = ${i};\n`);
      await repo.commit(`edit ${i}`);
    }
    const { result, places } = await scanHistory('HEAD');
    expect(result.exitCode).toBe(1);
    expect(places).toEqual([`${short(added)} src/config.ts:2`, `${short(kept)} src/keep.ts:2`].sort());
    expect(result.stdout).not.toContain(token('removed'));
    expect(result.stdout).not.toContain(token('kept'));
  });

  test('the same secret in two files is two findings; a renamed file is not reported again', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    await repo.write('a/one.env', `TOKEN=${token('shared')}\n`);
    await repo.write('b/two.env', `OTHER=1\nTOKEN=${token('shared')}\n`);
    const both = await repo.commit('two files');
    await repo.git('mv', 'a/one.env', 'a/renamed.env');
    await repo.commit('rename');
    const { report, places } = await scanHistory('HEAD');
    expect(places).toEqual([`${short(both)} a/one.env:1`, `${short(both)} b/two.env:2`]);
    expect(new Set(report.findings.map((f) => f.fingerprint)).size).toBe(2);
  });

  test('a file renamed and edited in one commit: only the edit is reported there; a file added beside a deletion is read whole', async () => {
    const body = (extra: string) =>
      `${Array.from({ length: 30 }, (_, i) => `LINE_${i}=value ${i}`).join('\n')}\n${extra}`;
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    await repo.write('config/old.env', body(`OLD=${token('before-move')}\n`));
    await repo.write('gone.txt', 'deleted later\n');
    const first = await repo.commit('config');
    await repo.git('mv', 'config/old.env', 'config/new.env');
    await repo.write('config/new.env', body(`OLD=${token('before-move')}\nNEW=${token('with-move')}\n`));
    await repo.git('rm', '-q', 'gone.txt');
    await repo.write('fresh.env', `FRESH=${token('beside-deletion')}\n`);
    const moved = await repo.commit('move, edit, delete and add');
    expect(await repo.git('show', '--format=', '--name-status', '-M', 'HEAD')).toMatch(/^R\d+\tconfig\/old.env/m);
    const { places } = await scanHistory('HEAD');
    expect(places).toEqual(
      [`${short(first)} config/old.env:31`, `${short(moved)} config/new.env:32`, `${short(moved)} fresh.env:1`].sort(),
    );
  });

  test('a merge of a rename on one side and an edit on the other reports the edit at its commit and at the merge, once each', async () => {
    // Merges are diffed without rename detection: the merged file is new to the side that did not rename it, so the
    // other side's lines are the merge's own too (a second finding, on its own commit and path; never a duplicate).
    repo = await createTempRepo({ files: { 'old.env': 'A=1\nB=2\nC=3\nD=4\nE=5\n' } });
    await repo.git('checkout', '-q', '-b', 'side');
    await repo.write('old.env', `A=1\nB=2\nC=3\nD=4\nE=5\nT=${token('edited-on-side')}\n`);
    const edit = await repo.commit('side: edit');
    await repo.git('checkout', '-q', 'main');
    await repo.git('mv', 'old.env', 'new.env');
    await repo.commit('main: rename');
    await repo.git('merge', '-q', '--no-edit', 'side');
    const merge = (await repo.git('rev-parse', 'HEAD')).trim();
    expect(await repo.git('show', 'HEAD:new.env')).toContain('T=');
    const { report, places } = await scanHistory('HEAD');
    expect(places).toEqual([`${short(edit)} old.env:6`, `${short(merge)} new.env:6`].sort());
    const keys = report.findings.map((f) => `${f.commit} ${f.path} ${f.line} ${f.ruleId} ${f.fingerprint}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('a range reports only what its commits added, not what the files they touch already held', async () => {
    repo = await createTempRepo({ files: { 'app.env': `OLD=${token('before')}\n` } });
    const base = (await repo.git('rev-parse', 'HEAD')).trim();
    await repo.write('app.env', `OLD=${token('before')}\nNEW=${token('after')}\n`);
    const change = await repo.commit('add another');
    const { places } = await scanHistory(`${base}..HEAD`);
    expect(places).toEqual([`${short(change)} app.env:2`]);
  });

  test('files git calls binary are read as the tree reads them: printable runs of a NUL file (whatever its name), UTF-16 text on the lines each commit added', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    await repo.write('logo.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0]), Buffer.from(token('png'))]));
    await repo.write('blob.dat', Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from(`key=${token('nul')}`)]));
    await repo.write('settings.reg', utf16(`Windows Registry Editor\r\n[HKEY]\r\n"Token"="${token('utf16')}"\r\n`));
    const added = await repo.commit('binary and utf-16');
    await repo.write(
      'settings.reg',
      utf16(`Windows Registry Editor\r\n[HKEY]\r\n"Token"="${token('utf16')}"\r\n"Other"="1"\r\n`),
    );
    await repo.write(
      'blob.dat',
      Buffer.concat([Buffer.from([0, 1, 2, 0]), Buffer.from(`key=${token('nul')}\n\0more`)]),
    );
    await repo.commit('edit the utf-16 file and the binary one, the secrets unchanged');
    await repo.git('rm', '-q', 'logo.png', 'blob.dat', 'settings.reg');
    await repo.commit('delete them');
    const { result, places } = await scanHistory('HEAD');
    expect(result.exitCode).toBe(1);
    expect(places).toEqual([
      `${short(added)} blob.dat:1`,
      `${short(added)} logo.png:1`,
      `${short(added)} settings.reg:3`,
    ]);
    for (const seed of ['png', 'nul', 'utf16']) expect(result.stdout).not.toContain(token(seed));
  });

  test('a secret in a commit message is a finding at `commit <id> message`, line 1 the subject; SARIF names the commit', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    await repo.write('app.txt', 'hello\n');
    const carrying = await repo.commit(`add app\n\ndeployed with TOKEN=${token('message')}`);
    const { result, report, places } = await scanHistory('HEAD');
    expect(result.exitCode).toBe(1);
    expect(places).toEqual([`${short(carrying)} commit ${carrying} message:3`]);
    expect(report.findings[0]!.ruleId).toBe('github-pat');
    expect(result.stdout).not.toContain(token('message'));
    const sarif = await runCli(['scan', '--history', 'HEAD', '--format', 'sarif'], { cwd: repo.root, env: repo.env });
    expect(sarifProblems(sarif.stdout)).toEqual([]);
    const location = JSON.parse(sarif.stdout).runs[0].results[0].locations[0];
    expect(location.logicalLocations[0].fullyQualifiedName).toBe(`commit ${carrying} message`);
    expect(location.physicalLocation.artifactLocation.uri).toBe('COMMIT_MSG');
    const github = await runCli(['scan', '--history', 'HEAD', '--format', 'github'], { cwd: repo.root, env: repo.env });
    expect(github.stdout).toMatch(/^::error title=secrets\/github-pat/m);
    expect(github.stdout).toContain(`in the message of commit ${short(carrying)}, line 3`);
    expect(github.stdout).not.toContain(token('message'));
  });

  test('a file added whole beyond the windowing size is scanned in pieces, with every line where it is', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    const lines = Array.from({ length: 130_000 }, (_, i) => `const value${i} = "ordinary generated data line";`);
    // Where the history reader cuts its first ~4 MB piece (line index `cut` is the first of the next piece).
    let cut = 0;
    for (let bytes = 0; bytes < 4_000_000; cut++) bytes += lines[cut]!.length + 1;
    const singles = [cut - 21, cut - 20, cut + 19, cut + 20, cut + 21, 129_999];
    for (const at of singles) lines[at] = `const secret${at} = "${token(`large-${at}`)}";`;
    // A private key whose lines run across the cut.
    const pem = fakePem('RSA PRIVATE KEY', 'scan-history-pem').split('\n');
    lines.splice(cut - 4, pem.length, ...pem);
    await repo.write('data/dump.js', `${lines.join('\n')}\n`);
    const added = await repo.commit('dump');
    const { report, places } = await scanHistory('HEAD');
    expect(places).toEqual(
      [...singles.map((at) => at + 1), cut - 3].map((line) => `${short(added)} data/dump.js:${line}`).sort(),
    );
    expect(report.findings.filter((f) => f.ruleId.includes('private-key'))).toHaveLength(1);
  }, 60_000);

  test('merges: a side branch secret is reported at its own commit, a secret the merge itself wrote at the merge', async () => {
    repo = await createTempRepo({ files: { 'app.env': 'A=1\nB=2\n' } });
    await repo.git('checkout', '-q', '-b', 'side');
    await repo.write('app.env', `A=1\nB=${token('side')}\n`);
    const side = await repo.commit('side secret');
    await repo.git('checkout', '-q', 'main');
    await repo.write('app.env', 'A=1\nB=3\n');
    await repo.commit('main change');
    await repo.git('merge', '-q', 'side').catch(() => undefined); // conflicts on B
    await repo.write('app.env', `A=1\nB=${token('merge')}\n`);
    await repo.git('add', 'app.env');
    await repo.git('commit', '-q', '--no-edit');
    const merge = (await repo.git('rev-parse', 'HEAD')).trim();
    const { places } = await scanHistory('HEAD');
    expect(places).toEqual([`${short(merge)} app.env:2`, `${short(side)} app.env:2`].sort());
  });

  test('an evil merge: what a clean merge wrote that neither parent had is found at the merge, whatever the sides did to the file', async () => {
    repo = await createTempRepo({ files: { 'side.env': 'S=1\n', 'old/moved.env': 'M=1\n', 'main.env': 'A=1\n' } });
    await repo.git('checkout', '-q', '-b', 'side');
    await repo.write('side.env', 'S=1\nS2=2\n');
    await repo.write('new/moved.env', 'M=1\n');
    await repo.git('rm', '-q', 'old/moved.env');
    await repo.commit('side: edit one file, rename another');
    await repo.git('checkout', '-q', 'main');
    await repo.write('main.env', 'A=1\nA2=2\n');
    await repo.commit('main change');
    await repo.git('merge', '-q', '--no-commit', '--no-ff', 'side');
    // Merged cleanly; then the merge adds lines of its own: to a file only the side changed, to the file the side
    // renamed, to one neither touched, and a file of its own.
    await repo.write('side.env', `S=1\nS2=2\nEVIL1=${token('evil-side')}\n`);
    await repo.write('new/moved.env', `M=1\nEVIL2=${token('evil-renamed')}\n`);
    await repo.write('main.env', `A=1\nA2=2\nEVIL3=${token('evil-untouched')}\n`);
    await repo.write('evil.env', `EVIL4=${token('evil-new')}\n`);
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '--no-edit');
    const merge = short((await repo.git('rev-parse', 'HEAD')).trim());
    const { places } = await scanHistory('HEAD');
    expect(places).toEqual(
      [`${merge} evil.env:1`, `${merge} main.env:3`, `${merge} new/moved.env:2`, `${merge} side.env:3`].sort(),
    );
  });

  test('fingerprints are stable: a baseline written from history silences the same scan', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    await repo.write('my config.env', `TOKEN=${token('baseline')}\n`);
    await repo.commit('secret in a path with a space');
    const first = await scanHistory('HEAD');
    expect(first.places).toHaveLength(1);
    expect(first.report.findings[0]!.path).toBe('my config.env');
    const write = await runCli(['scan', '--history', 'HEAD', '--baseline-write'], { cwd: repo.root, env: repo.env });
    expect(write.exitCode).toBe(0);
    const again = await scanHistory('HEAD');
    expect(again.result.exitCode).toBe(0);
    expect(again.report.findings).toEqual([]);
    // The same fingerprint as the work tree's finding for that file.
    const all = await runCli(['scan', '--all', '--format', 'json'], { cwd: repo.root, env: repo.env });
    expect(JSON.parse(all.stdout).findings).toEqual([]);
  });

  test('a bad range is one line naming it, exit 2', async () => {
    repo = await createTempRepo({ files: { 'README.md': '# app\n' } });
    const result = await runCli(['scan', '--history', 'nope..HEAD'], { cwd: repo.root, env: repo.env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('--history nope..HEAD');
  });
});
