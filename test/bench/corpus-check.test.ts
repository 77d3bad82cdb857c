import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempRepo, removeDir, type TempRepo, tempDir } from '../support/git-repo.js';

// The benches' corpus check (bench/measure.mjs): a corpus that holds git's storage or a binary where text is expected
// ends the bench with one line and exit 1, so `npm run bench` fails instead of timing compressed bytes.
const measurePath = join(process.cwd(), 'bench/measure.mjs');
const measure = await import(pathToFileURL(measurePath).href);

const cleanups: string[] = [];
let repo: TempRepo | undefined;
afterEach(async () => {
  for (const dir of cleanups.splice(0)) await removeDir(dir);
  await repo?.cleanup();
  repo = undefined;
});

async function corpus(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await tempDir('tollgate-bench-corpus-');
  cleanups.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe('corpusProblems', () => {
  it('passes a folder of source', async () => {
    const dir = await corpus({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# hi\n' });
    expect(measure.corpusProblems(dir)).toEqual([]);
  });

  it('names a pack, its index, a loose object and a nested .git folder', async () => {
    const dir = await corpus({
      'vendor/objects/pack/pack-1.pack': 'PACK',
      'vendor/x.idx': 'idx',
      'vendor/objects/ab/cdef0123456789abcdef0123456789abcdef01': 'blob',
      'dep/.git/HEAD': 'ref: refs/heads/main\n',
    });
    const problems: string[] = measure.corpusProblems(dir);
    expect(problems).toHaveLength(4);
    expect(problems.every((problem) => problem.endsWith('(git storage)'))).toBe(true);
    expect(problems.join(' ')).toContain('dep/.git');
  });

  it('names a binary file where text is expected, and lets it pass with binary: false', async () => {
    const dir = await corpus({ 'img/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]) });
    expect(measure.corpusProblems(dir)).toEqual(['img/logo.png (binary: a NUL byte)']);
    expect(measure.corpusProblems(dir, { binary: false })).toEqual([]);
  });

  it('skips a work tree’s own .git and .tollgate with repository: true, and only those', async () => {
    repo = await createTempRepo({ files: { 'src/a.ts': 'export {};\n' } });
    expect(measure.corpusProblems(repo.root)).toContainEqual('.git (git storage)');
    expect(measure.corpusProblems(repo.root, { repository: true })).toEqual([]);
    await repo.write('nested/.git/config', '[core]\n');
    expect(measure.corpusProblems(repo.root, { repository: true })).toEqual(['nested/.git (git storage)']);
  });

  it('stops at five problems', async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 9; index++) files[`p${index}.pack`] = 'PACK';
    expect(measure.corpusProblems(await corpus(files))).toHaveLength(5);
  });
});

describe('historyProblems', () => {
  it('names a pack committed into the range, not source', async () => {
    repo = await createTempRepo({ files: { 'src/a.ts': 'export {};\n' } });
    const range = `${(await repo.git('rev-parse', 'HEAD')).trim()}..HEAD`;
    await repo.write('src/b.ts', 'export const b = 2;\n');
    await repo.commit('source');
    expect(measure.historyProblems(repo.root, range, repo.env)).toEqual([]);
    await repo.write('backup/objects/pack/pack-1.pack', 'PACK');
    await repo.commit('a pack');
    expect(measure.historyProblems(repo.root, range, repo.env)).toEqual([
      'backup/objects/pack/pack-1.pack (git storage)',
    ]);
  });
});

describe('assertSourceCorpus', () => {
  it('ends the bench with exit 1 and one line naming the corpus and what is wrong', async () => {
    const dir = await corpus({ 'a.pack': 'PACK', 'ok.js': 'x\n' });
    const script = `import { assertSourceCorpus } from ${JSON.stringify(pathToFileURL(measurePath).href)};
assertSourceCorpus(${JSON.stringify(dir)});
console.log('measured anyway');`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`corpus ${dir} holds what is not source: a.pack (git storage)`);
  });
});

describe('recordResult', () => {
  it('appends one JSON line per result to the file BENCH_RESULTS names, and nothing without it', async () => {
    const dir = await corpus({});
    const file = join(dir, 'results.jsonl');
    const script = `import { recordResult } from ${JSON.stringify(pathToFileURL(measurePath).href)};
recordResult('one', { ratio: 1.5 });
recordResult('two', { nested: { ms: 3 } });`;
    spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, BENCH_RESULTS: file },
    });
    expect(
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { bench: 'one', ratio: 1.5 },
      { bench: 'two', nested: { ms: 3 } },
    ]);
    const quiet = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, BENCH_RESULTS: '' },
      encoding: 'utf8',
    });
    expect(quiet.status).toBe(0);
  });
});
