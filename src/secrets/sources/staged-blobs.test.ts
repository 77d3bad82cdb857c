import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { stagedTargets } from './git-sources.js';

/**
 * `stagedTargets` reads the staged blobs sixteen at a time through one `git cat-file --batch` (a git per file cost
 * each commit's hook about 7 ms of CPU a file). Every read must give the bytes `git cat-file blob :0:<path>` gives,
 * whatever the names and contents, and fail where that fails.
 */
let repo: TempRepo;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# staged\n' } });
});
afterAll(() => repo?.cleanup());

const NAMES = [
  'a.txt',
  'src/app.env',
  ' leading space.txt',
  'trailing space.txt ',
  'tab\tin name.txt',
  'new\nline.txt',
  'carriage\rreturn.txt',
  'quote"and\\backslash.txt',
  'ünïcödé/ファイル.txt',
  '0:colon.txt',
  'deep/er/still/file.bin',
  '-dash.txt',
  ...Array.from({ length: 24 }, (_, index) => `many/file-${index}.txt`),
];

const contents = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom('', '\n', 'TOKEN=x\n\n\n', 'no newline at end'),
);

function git(...args: string[]): Buffer {
  return execFileSync('git', args, { cwd: repo.root, env: repo.env, maxBuffer: 64 * 1024 * 1024, stdio: 'pipe' });
}

/** What `git cat-file blob :0:<path>` reads (stage 0 named: `:0:colon.txt` alone is stage 0 of `colon.txt`). */
function alone(path: string): { bytes: Buffer } | 'failed' {
  try {
    return { bytes: git('cat-file', 'blob', `:0:${path}`) };
  } catch {
    return 'failed';
  }
}

/** Staged as `files` has them, on top of the first commit. */
function stage(files: ReadonlyMap<string, string | Buffer>): void {
  git('reset', '-q', '--hard', 'HEAD');
  git('clean', '-fdxq');
  for (const [name, content] of files) {
    mkdirSync(dirname(join(repo.root, name)), { recursive: true });
    writeFileSync(join(repo.root, name), content);
  }
  if (files.size > 0) git('add', '-A');
}

test('every staged blob reads as `git cat-file blob :0:<path>` reads it, across batches and odd names', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: NAMES.length }),
      fc.array(contents, { minLength: NAMES.length, maxLength: NAMES.length }),
      fc.array(fc.nat({ max: 40 }), { maxLength: 40 }),
      async (names, texts, order) => {
        stage(new Map(names.map((name, index) => [name, texts[index]!])));
        const targets = await stagedTargets({ repoRoot: repo.root, env: repo.env });
        // Read in the scan's order, skipping some and coming back to others (redaction reads again).
        const picks = [...targets.keys(), ...order.filter((index) => index < targets.length)];
        for (const index of picks) {
          const target = targets[index]!;
          const read = await Promise.resolve(target.read()).then(
            (bytes) => ({ bytes: Buffer.from(bytes as Buffer) }),
            () => 'failed',
          );
          expect(read).toEqual(alone(target.path));
        }
      },
    ),
    { numRuns: propertyRuns(15, 60) },
  );
});

test('a file whose name starts with a digit and a colon reads as staged, not as a stage of another path', async () => {
  stage(
    new Map([
      ['0:colon.txt', 'zero\n'],
      ['colon.txt', 'plain\n'],
      ['dir/2:two.env', 'two\n'],
    ]),
  );
  const targets = await stagedTargets({ repoRoot: repo.root, env: repo.env });
  const read = async (path: string) => String(await targets.find((target) => target.path === path)!.read());
  expect(await read('0:colon.txt')).toBe('zero\n');
  expect(await read('colon.txt')).toBe('plain\n');
  expect(await read('dir/2:two.env')).toBe('two\n');
});

test('a symlink reads as its target, and a submodule that is no blob fails as a read of its own did', async () => {
  stage(new Map([['a.txt', 'one\n']]));
  symlinkSync('a.txt', join(repo.root, 'link'));
  git('add', 'link');
  git('update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},sub`);
  const targets = await stagedTargets({ repoRoot: repo.root, env: repo.env });
  const byPath = new Map(targets.map((target) => [target.path, target]));
  expect(String(await byPath.get('a.txt')!.read())).toBe('one\n');
  expect(String(await byPath.get('link')!.read())).toBe('a.txt');
  const sub = byPath.get('sub');
  if (sub) await expect(sub.read()).rejects.toThrow(/staged sub/);
});
