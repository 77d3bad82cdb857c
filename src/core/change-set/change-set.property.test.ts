import { cp } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTempRepo, isolateProcessEnv, removeDir, type TempRepo } from '../../../test/support/git-repo.js';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { createChangeSet } from './index.js';

/**
 * For random edits of a small repository, the change set must agree with what git itself reports once the whole
 * working tree is really staged (in a throwaway copy): the same paths, statuses, old paths and added lines. The
 * oracle reads git's plain `--name-status` and `-U0` text with its own tiny parser, not with ours.
 */

let restoreEnv: () => Promise<void>;
beforeAll(async () => {
  restoreEnv = await isolateProcessEnv();
});
afterAll(() => restoreEnv());

const NAMES = ['a.txt', 'b c.txt', 'dir/d.txt', 'dir/ü.txt', 'e.txt'] as const;
const content = fc
  .tuple(fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'epsilon', ''), { maxLength: 12 }), fc.boolean())
  .map(([lines, trailingNewline]) => lines.join('\n') + (trailingNewline && lines.length > 0 ? '\n' : ''));
const operation = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...NAMES), content }),
  fc.record({ kind: fc.constant('remove' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ kind: fc.constant('stage' as const), name: fc.constantFrom(...NAMES) }),
  fc.record({ kind: fc.constant('move' as const), name: fc.constantFrom(...NAMES), to: fc.constantFrom(...NAMES) }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

async function apply(repo: TempRepo, op: Operation): Promise<void> {
  const { existsSync } = await import('node:fs');
  const { rename, mkdir } = await import('node:fs/promises');
  const { dirname, join } = await import('node:path');
  const exists = existsSync(join(repo.root, op.name));
  switch (op.kind) {
    case 'write':
      return repo.write(op.name, op.content);
    case 'remove':
      return repo.remove(op.name);
    case 'stage':
      if (exists) await repo.git('add', '--', op.name);
      return;
    case 'move':
      if (!exists || op.to === op.name) return;
      await mkdir(dirname(join(repo.root, op.to)), { recursive: true });
      return rename(join(repo.root, op.name), join(repo.root, op.to));
  }
}

interface OracleFile {
  status: string;
  oldPath?: string;
  addedLines: number[];
}

/** git's own view: stage everything in a copy, then `diff --cached` against the same base. */
async function oracle(repo: TempRepo, base: string): Promise<Record<string, OracleFile>> {
  const copy = `${repo.root}-oracle`;
  await cp(repo.root, copy, { recursive: true });
  try {
    const git = (...args: string[]) => repo.git('-C', copy, '-c', 'core.quotePath=false', ...args);
    await git('add', '-A');
    const files: Record<string, OracleFile> = {};
    const fields = (await git('diff', '--cached', '-M', '-z', '--name-status', base)).split('\0');
    for (let i = 0; i < fields.length - 1; ) {
      const letter = (fields[i] ?? '')[0] ?? '';
      if (letter === 'R') {
        files[fields[i + 2] ?? ''] = { status: 'renamed', oldPath: fields[i + 1] ?? '', addedLines: [] };
        i += 3;
      } else {
        const status = { A: 'added', D: 'deleted', M: 'modified', T: 'type_changed' }[letter] ?? letter;
        files[fields[i + 1] ?? ''] = { status, addedLines: [] };
        i += 2;
      }
    }
    let current: OracleFile | undefined;
    for (const line of (await git('diff', '--cached', '-M', '-U0', '--no-color', base)).split('\n')) {
      const target = /^\+\+\+ b\/(.*?)\t?$/.exec(line); // git adds a tab after a name with a space
      if (target) current = files[target[1] ?? ''];
      const hunk = /^@@ -\S+ \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (hunk && current) {
        const start = Number(hunk[1]);
        const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
        for (let n = start; n < start + count; n += 1) current.addedLines.push(n);
      }
    }
    return files;
  } finally {
    await removeDir(copy);
  }
}

test('the change set agrees with git on random edits', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(fc.constantFrom(...NAMES), content, { minKeys: 1 }),
      fc.array(operation, { minLength: 1, maxLength: 6 }),
      async (initial, operations) => {
        const repo = await createTempRepo({ files: initial });
        try {
          for (const op of operations) await apply(repo, op);
          const changeSet = await createChangeSet({ cwd: repo.root });
          const expected = await oracle(repo, changeSet.base.commit ?? 'HEAD');
          const actual = Object.fromEntries(
            changeSet.files.map((file) => [
              file.path,
              {
                status: file.status,
                ...(file.oldPath !== undefined ? { oldPath: file.oldPath } : {}),
                addedLines: file.addedLines.flatMap((r) =>
                  Array.from({ length: r.end - r.start + 1 }, (_, i) => r.start + i),
                ),
              },
            ]),
          );
          expect(actual).toEqual(expected);
        } finally {
          await repo.cleanup();
        }
      },
    ),
    { numRuns: propertyRuns(8, 20) },
  );
});
