import { utimesSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { createChangeSet } from '../change-set/index.js';
import { stampOf } from './tree-stamp.js';

/**
 * What the fast paths stand on (the stop hook's, the no-change run's): two vouching, non-racy stamps that are equal
 * mean the same change set. As a property: whatever an agent does between two stamps (edit a file, with its old
 * size and mtime put back; add or delete one; stage; flag an entry assume-unchanged or skip-worktree; install a clean
 * filter; move the base branch), equal stamps never hide a different fingerprint. Times pass between
 * steps as for an agent that waits (every mtime is set back a minute): the racy-clean rule is not what holds.
 */
const { repoWith } = useIsolatedRepos();
const FILES = ['a.txt', 'b.txt', 'dir/c.txt'];

type Step =
  | { kind: 'edit'; file: number; text: string }
  | { kind: 'add'; name: string; text: string }
  | { kind: 'delete'; file: number }
  | { kind: 'stage' }
  | { kind: 'flag'; file: number; flag: '--assume-unchanged' | '--skip-worktree' }
  | { kind: 'filter' }
  | { kind: 'ref'; target: 'HEAD' | 'HEAD~1' };

const text = fc.constantFrom('one\n', 'two\n', 'SECRET\n', 'one\none\n', '');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('edit' as const), file: fc.nat(2), text }),
  fc.record({ kind: fc.constant('add' as const), name: fc.constantFrom('new.txt', 'dir/new.txt'), text }),
  fc.record({ kind: fc.constant('delete' as const), file: fc.nat(2) }),
  fc.record({ kind: fc.constant('stage' as const) }),
  fc.record({
    kind: fc.constant('flag' as const),
    file: fc.nat(2),
    flag: fc.constantFrom('--assume-unchanged' as const, '--skip-worktree' as const),
  }),
  fc.record({ kind: fc.constant('filter' as const) }),
  fc.record({ kind: fc.constant('ref' as const), target: fc.constantFrom('HEAD' as const, 'HEAD~1' as const) }),
);

describe('tree stamps (property)', () => {
  test('equal vouching stamps mean equal change sets, whatever happened between them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        // On a branch one commit ahead of `main`: the base is `main`, which a ref move can change under the same tree.
        const repo = await repoWith(Object.fromEntries(FILES.map((file) => [file, `${file}\n`])));
        await repo.git('checkout', '-q', '-b', 'work');
        writeFileSync(join(repo.root, 'b.txt'), 'b on work\n');
        await repo.commit('work');
        const past = () => new Date(Date.now() - 60_000);
        const backdate = async () => {
          for (const file of [...FILES, 'new.txt', 'dir/new.txt']) {
            try {
              utimesSync(join(repo.root, file), past(), past());
            } catch {
              // not there
            }
          }
        };
        const seen = new Map<string, string>();
        const observe = async () => {
          const stamp = await stampOf({ cwd: repo.root, env: process.env, version: 't', purpose: 'run', refs: true });
          const { fingerprint } = await createChangeSet({ cwd: repo.root });
          if (!stamp?.vouches || stamp.racy) return;
          const earlier = seen.get(stamp.value);
          if (earlier !== undefined) expect(fingerprint, JSON.stringify(steps)).toBe(earlier);
          seen.set(stamp.value, fingerprint);
        };
        await backdate();
        await observe();
        for (const each of steps) {
          await apply(each);
          await backdate();
          await observe();
        }

        async function apply(each: Step): Promise<void> {
          switch (each.kind) {
            case 'edit':
              // The same size when it can be: only the content (and ctime, which no one can set back) tells.
              writeFileSync(join(repo.root, FILES[each.file]!), each.text);
              return;
            case 'add':
              await mkdir(join(repo.root, 'dir'), { recursive: true });
              writeFileSync(join(repo.root, each.name), each.text);
              return;
            case 'delete':
              await rm(join(repo.root, FILES[each.file]!), { force: true });
              return;
            case 'stage':
              await repo.git('add', '-A');
              return;
            case 'flag':
              await repo.git('update-index', each.flag, FILES[each.file]!).catch(() => '');
              return;
            case 'filter':
              await repo.git('config', 'filter.hide.clean', 'cat');
              await mkdir(join(repo.root, '.git/info'), { recursive: true });
              writeFileSync(join(repo.root, '.git/info/attributes'), '*.txt filter=hide\n');
              return;
            case 'ref':
              await repo.git('update-ref', 'refs/heads/main', (await repo.git('rev-parse', each.target)).trim());
              return;
          }
        }
      }),
      { numRuns: propertyRuns(5, 12) },
    );
  });
});
