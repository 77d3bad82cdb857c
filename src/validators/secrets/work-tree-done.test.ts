import { afterEach, describe, expect, test } from 'vitest';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { changeSetFromRepo, secretsContext } from '../../../test/support/secrets-context.js';
import type { RepoChangeSet } from '../../core/change-set/types.js';
import { secretsTool } from './index.js';

/**
 * The secret scan says it reads only the snapshot (`ToolContext.doneWithWorkTree`, which lets the check of the tree
 * after the validators begin beside it) only where every read left is of the change set's own checked bytes.
 */
let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function said(
  options: unknown = {},
  input = {},
  change: (set: RepoChangeSet) => RepoChangeSet = (set) => set,
): Promise<{ said: number; status: string }> {
  repo = await createTempRepo({ files: { 'config/app.env': 'LOG_LEVEL=info\n' } });
  await repo.write('config/app.env', 'LOG_LEVEL=debug\n');
  const ctx = secretsContext(repo.root, change(await changeSetFromRepo(repo.root, repo.env)), options, input);
  let count = 0;
  const result = await secretsTool.run({ ...ctx, doneWithWorkTree: () => count++ });
  return { said: count, status: result.status };
}

describe('the secret scan and the work tree', () => {
  test('a run over the change set says so once, and still scans', async () => {
    expect(await said()).toEqual({ said: 1, status: 'passed' });
  });

  test.each([
    ['paths given by the call', {}, { paths: ['config/app.env'] }],
    ['secrets.verify (the providers are asked about what the files hold)', { verify: true }, {}],
  ])('not for %s', async (_name, options, input) => {
    expect((await said(options, input)).said).toBe(0);
  });

  test('not when a file over validation.maxFileSize is streamed from disk', async () => {
    const large = (set: RepoChangeSet): RepoChangeSet => ({
      ...set,
      skipped: [{ path: 'config/app.env', reason: 'too_large', detail: 'over the limit' }],
    });
    expect((await said({}, {}, large)).said).toBe(0);
  });
});
