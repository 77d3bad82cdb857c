import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { timeBudget } from '../../../test/support/time-budget.js';
import { builtinRules } from '../rules/index.js';
import { fakeChecksumToken } from '../sample-tokens.js';
import { type ScanOutcome, scanBatches, scanTargets } from '../scan-targets.js';
import { SecretScanner } from '../scanner.js';
import { historyBatches } from './git-sources.js';
import { historyTargetBatches, renameSlice } from './history/history-source.js';
import { parsePatch } from './parse-patch.js';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

/**
 * `commits` commits on main, commit i appending one line to `f{i % FILES}.env`; every 10th line is a token. Spread over
 * many small files, each commit's diff is cheap for git, and the patch still holds hundreds of long added lines.
 */
const FILES = 60;

function fastImport(commits: number): { stream: string; tokens: Map<number, string> } {
  const tokens = new Map<number, string>();
  const files = new Map<string, string[]>();
  let stream = '';
  for (let i = 0; i < commits; i++) {
    const file = `f${i % FILES}.env`;
    const lines = files.get(file) ?? [];
    const token = fakeChecksumToken('ghp_', `history-${i}`);
    if (i % 10 === 0) tokens.set(i, token);
    lines.push(i % 10 === 0 ? `TOKEN_${i}=${token}` : `LINE_${i}=${'x'.repeat(12_000)}`);
    files.set(file, lines);
    const content = `${lines.join('\n')}\n`;
    const message = `commit ${i}`;
    stream += `commit refs/heads/main\ncommitter T <t@example.invalid> ${1_700_000_000 + i} +0000\n`;
    stream += `data ${Buffer.byteLength(message)}\n${message}\n`;
    stream += `M 100644 inline ${file}\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  return { stream, tokens };
}

describe('scan --history streams git log', () => {
  test('hundreds of commits arrive in many batches and give the same findings as the whole patch would', async () => {
    repo = await createTempRepo();
    const { stream, tokens } = fastImport(300);
    const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo.root, env: repo.env, input: stream });
    expect(imported.status, imported.stderr?.toString()).toBe(0);
    let batches = 0;
    async function* counted() {
      for await (const batch of historyBatches({ repoRoot: repo!.root, env: repo!.env, range: 'main' })) {
        batches++;
        yield batch;
      }
    }
    const outcome = await scanBatches(counted(), { scanner: new SecretScanner(builtinRules) });
    expect(batches).toBeGreaterThan(2);
    expect(outcome.findings).toHaveLength(tokens.size);
    const commits = new Set(outcome.findings.map((finding) => finding.commit));
    expect(commits.size).toBe(tokens.size);
    // Commit i added line floor(i / FILES) + 1 of its file.
    const places = outcome.findings.map((finding) => `${finding.path}:${finding.line}`).sort();
    const expected = [...tokens.keys()].map((i) => `f${i % FILES}.env:${Math.floor(i / FILES) + 1}`).sort();
    expect(places).toEqual(expected);
  });

  test('a reader that stops after the first batch stops git too, at once', async () => {
    repo = await createTempRepo();
    const imported = spawnSync('git', ['fast-import', '--quiet'], {
      cwd: repo.root,
      env: repo.env,
      input: fastImport(300).stream,
    });
    expect(imported.status, imported.stderr?.toString()).toBe(0);
    const started = performance.now();
    for await (const batch of historyBatches({ repoRoot: repo.root, env: repo.env, range: 'main' })) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    // Scaled: a loaded machine starts git and reads the first batch late (docs/testing.md).
    expect(performance.now() - started).toBeLessThan(timeBudget(5000));
    // No git is left working in the repository (they are told to stop; give them a moment to go).
    const gitsIn = (root: string) =>
      readdirSync('/proc').filter((pid) => {
        try {
          return (
            readlinkSync(`/proc/${pid}/cwd`) === root && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'git'
          );
        } catch {
          return false;
        }
      });
    const deadline = performance.now() + timeBudget(2000);
    while (gitsIn(repo.root).length > 0 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gitsIn(repo.root)).toEqual([]);
  });

  test('a bad range is a one-line error naming it, after nothing was yielded', async () => {
    repo = await createTempRepo({ files: { 'a.txt': 'x\n' } });
    const run = async () => {
      for await (const _ of historyBatches({ repoRoot: repo!.root, env: repo!.env, range: 'nope..HEAD' })) void _;
    };
    await expect(run()).rejects.toThrow(/^--history nope\.\.HEAD: /);
  });

  test('one git log walks the range as the slices list it: empty and exclusion-only ranges read nothing', async () => {
    repo = await createTempRepo();
    const imported = spawnSync('git', ['fast-import', '--quiet'], {
      cwd: repo.root,
      env: repo.env,
      input: fastImport(30).stream,
    });
    expect(imported.status, imported.stderr?.toString()).toBe(0);
    const scanner = new SecretScanner(builtinRules);
    const places = async (range: string, parallel: number) => {
      const outcome = await scanBatches(
        historyTargetBatches({ repoRoot: repo!.root, env: repo!.env, range, parallel }),
        { scanner },
      );
      return outcome.findings.map((finding) => `${finding.commit} ${finding.path}:${finding.line}`).sort();
    };
    // Without a revision of its own, git log would show HEAD's whole history: these must find nothing.
    expect(await places('main..main', 1)).toEqual([]);
    expect(await places('^main', 1)).toEqual([]);
    // A symmetric difference has two ends and a merge base excluded; both shapes read the same commits.
    for (const range of ['main~25..main', 'main~20...main', 'main']) {
      const walked = await places(range, 1);
      expect(walked.length).toBeGreaterThan(0);
      expect(await places(range, 2)).toEqual(walked);
    }
  });
});

/**
 * A history with most of what a real one has: edits, secrets added then removed, kept, copied to another file,
 * renamed files, deletions, odd paths, a long file and a merge of a side branch (no resolution of its own).
 */
function variedHistory(commits: number): string {
  const files = new Map<string, string[]>();
  const marks: number[] = [];
  let stream = '';
  const write = (path: string, lines: string[]) => {
    const content = `${lines.join('\n')}\n`;
    stream += `M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  };
  for (let i = 1; i <= commits; i++) {
    const branch = i % 50 >= 45 ? 'side' : 'main';
    stream += `commit refs/heads/${branch}\nmark :${i}\ncommitter T <t@example.invalid> ${1_700_000_000 + i} +0000\ndata 2\nc\n`;
    if (i === 45) stream += 'from :44\n';
    if (i % 50 === 0) {
      // A clean merge: it writes nothing of its own.
      stream += `from :${marks.filter((mark) => mark % 50 < 45).pop()}\nmerge :${i - 1}\n`;
      marks.push(i);
      continue;
    }
    marks.push(i);
    const path = [`src/app${i % 7}.ts`, `config/ü ${i % 3}.env`, `docs/"q" ${i % 2}.md`][i % 3]!;
    const lines = files.get(path) ?? [];
    const token = fakeChecksumToken('ghp_', `varied-${i}`);
    if (i % 11 === 0) lines.splice(lines.length >> 1, 0, `const token${i} = "${token}";`);
    else if (i % 13 === 0 && lines.length > 3) lines.splice(1, 2);
    else lines.push(`line ${i} ${'y'.repeat(i % 300)}`);
    if (i % 17 === 0) lines.push(`copy = "${fakeChecksumToken('ghp_', `varied-${i - (i % 11)}`)}"`);
    files.set(path, lines);
    write(path, lines);
    if (i % 97 === 0 && files.has(`src/app${i % 7}.ts`)) {
      stream += `R src/app${i % 7}.ts src/moved${i}.ts\n`;
      files.set(`src/moved${i}.ts`, files.get(`src/app${i % 7}.ts`)!);
      files.delete(`src/app${i % 7}.ts`);
    }
    if (i % 89 === 0) {
      stream += `D ${path}\n`;
      files.delete(path);
    }
  }
  return stream;
}

describe('scan --history gives what the whole-patch parser gave', () => {
  test('same findings, commits, lines and fingerprints as parsing one `git log -p` whole, with 1 to 3 git processes', async () => {
    repo = await createTempRepo();
    const imported = spawnSync('git', ['fast-import', '--quiet'], {
      cwd: repo.root,
      env: repo.env,
      input: variedHistory(600),
    });
    expect(imported.status, imported.stderr?.toString()).toBe(0);
    const scanner = new SecretScanner(builtinRules);
    const log = spawnSync(
      'git',
      [
        '-c',
        'core.quotePath=false',
        'log',
        '-p',
        '-U0',
        '--no-color',
        '--no-ext-diff',
        '--no-merges',
        '--format=%x00commit %H',
        'main',
        '--',
      ],
      { cwd: repo.root, env: repo.env, maxBuffer: 1e9 },
    );
    const whole = parsePatch(log.stdout.toString())
      .filter((file) => !file.binary)
      .map((file) => {
        const text = file.added.map((item) => item.text).join('\n');
        return {
          path: file.path,
          commit: file.commit!,
          lineMap: file.added.map((item) => item.line),
          read: async () => text,
        };
      });
    const summary = (outcome: ScanOutcome) =>
      outcome.findings
        .map(
          (finding) =>
            `${finding.commit} ${finding.path}:${finding.line}:${finding.column} ${finding.ruleId} ${finding.fingerprint}`,
        )
        .sort();
    const expected = summary(await scanTargets(whole, { scanner }));
    expect(expected.length).toBeGreaterThan(40);
    expect(expected.some((line) => line.includes('config/ü'))).toBe(true);
    expect(log.stdout.toString()).toContain('rename to src/moved');
    for (const parallel of [1, 2, 3]) {
      const outcome = await scanBatches(
        historyTargetBatches({ repoRoot: repo.root, env: repo.env, range: 'main', parallel }),
        { scanner },
      );
      expect(summary(outcome)).toEqual(expected);
    }
  });
});

/**
 * Commits that add and delete files (renames among them) beside modified files, with names that need care: the rename
 * pass is given only the added and deleted paths, and the modified files come from the first pass.
 */
function movingHistory(oddName: string): string {
  let stream = '';
  let mark = 0;
  const token = (n: number) => fakeChecksumToken('ghp_', `moving-${n}`);
  const body = (n: number, extra = '') =>
    `${Array.from({ length: 30 }, (_, i) => `line ${i} of file ${n}`).join('\n')}\n${extra}`;
  const commit = (ops: string) => {
    mark++;
    stream += `commit refs/heads/main\nmark :${mark}\ncommitter T <t@example.invalid> ${1_700_000_000 + mark} +0000\ndata 2\nc\n`;
    if (mark > 1) stream += `from :${mark - 1}\n`;
    stream += ops;
  };
  const modify = (path: string, content: string) =>
    `M 100644 inline ${path}\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  commit(
    modify('a.txt', body(1)) +
      modify('dir one/b "q".txt', body(2)) +
      modify('c.txt', body(3)) +
      modify('kept.txt', body(4)) +
      modify('gone.txt', body(5)),
  );
  // A rename with an edit, a modified file, an added and a deleted one.
  commit(
    'R a.txt moved/a.txt\n' +
      modify('moved/a.txt', body(1, `key = "${token(1)}"\n`)) +
      modify('kept.txt', body(4, `kept = "${token(2)}"\n`)) +
      modify('fresh.txt', `fresh = "${token(3)}"\n`) +
      'D gone.txt\n',
  );
  // Renames of an odd name; this commit modifies fresh.txt, which the commit before added.
  commit(
    `R "dir one/b \\"q\\".txt" "dir two/b \\"q\\".txt"\n` +
      modify('dir two/b "q".txt', body(2, `quoted = "${token(4)}"\n`)) +
      modify('fresh.txt', `fresh = "${token(3)}"\nmore = "${token(5)}"\n`) +
      modify(oddName, `odd = "${token(6)}"\n`) +
      'D c.txt\n',
  );
  return stream;
}

describe('the rename pass reads only what rename detection can change', () => {
  test('the same targets as reading each commit whole with rename detection, with or without a pathspec', async () => {
    // A caller's global pathspec settings (which git refuses beside literal ones) change nothing.
    const cases: Array<[string, NodeJS.ProcessEnv]> = [
      ['odd name.txt', {}],
      ['odd name.txt', { GIT_GLOB_PATHSPECS: '1', GIT_ICASE_PATHSPECS: '1' }],
      ['"new\\nline.txt"', {}],
    ];
    for (const [oddName, extraEnv] of cases) {
      repo = await createTempRepo();
      const imported = spawnSync('git', ['fast-import', '--quiet'], {
        cwd: repo.root,
        env: repo.env,
        input: movingHistory(oddName),
      });
      expect(imported.status, imported.stderr?.toString()).toBe(0);
      const log = spawnSync(
        'git',
        [
          ...['-c', 'core.quotePath=false', 'log', '-p', '-U0', '--find-renames', '--no-color', '--no-ext-diff'],
          ...['--format=%x00commit %H', 'main', '--'],
        ],
        { cwd: repo.root, env: repo.env, maxBuffer: 1e9 },
      );
      expect(log.stdout.toString()).toContain('rename to moved/a.txt');
      const expected = parsePatch(log.stdout.toString())
        .filter((file) => file.added.length > 0)
        .map((file) => `${file.commit} ${file.path} ${file.added.map((item) => `${item.line}:${item.text}`).join('|')}`)
        .sort();
      const got: string[] = [];
      const env = { ...repo.env, ...extraEnv };
      for await (const batch of historyTargetBatches({ repoRoot: repo.root, env, range: 'main' }))
        for (const target of batch) {
          if (!target.lineMap) continue;
          const lines = String(await target.read()).split('\n');
          got.push(
            `${target.commit} ${target.path} ${lines.map((line, i) => `${target.lineMap![i]}:${line}`).join('|')}`,
          );
        }
      expect(got.sort()).toEqual(expected);
      expect(got.some((line) => line.includes(' moved/a.txt 31:key'))).toBe(true);
      await repo.cleanup();
      repo = undefined;
    }
  });

  test('the rename pass is given its commits, then every left path after --, or only its commits', () => {
    const files = (read: string[], left: string[] | null) => ({ read: new Set(read), left });
    const input = (rescans: Map<string, ReturnType<typeof files>>) => renameSlice(rescans).input.toString();
    expect(
      input(
        new Map([
          ['c1', files(['m.txt'], ['a.txt', 'b.txt'])],
          ['c2', files([], ['b.txt', 'c d.txt'])],
        ]),
      ),
    ).toBe('c1\nc2\n--\na.txt\nb.txt\nc d.txt\n');
    expect(
      input(
        new Map([
          ['c1', files([], ['a.txt'])],
          ['c2', files([], null)],
        ]),
      ),
    ).toBe('c1\nc2\n');
  });
});
