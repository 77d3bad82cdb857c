import { join } from 'node:path';
import type { RepoChangeSet } from '../../src/core/change-set/types.js';
import type { ToolContext } from '../../src/core/pipeline/tool.js';
import { runProcess } from '../../src/core/process.js';
import { type SecretsOptions, secretsOptionsSchema } from '../../src/secrets/options.js';
import { parsePatch, toRanges } from '../../src/secrets/sources/parse-patch.js';
import type { SecretsInput } from '../../src/validators/secrets/run-secrets.js';
import { toolContext } from './tool-context.js';

/**
 * Test support for the secrets validator's tests: a change set read from a real repository's `git diff -U0 HEAD` (tracked changes plus
 * files added with intent-to-add), and a ToolContext around it.
 */
export async function changeSetFromRepo(root: string, env: NodeJS.ProcessEnv): Promise<RepoChangeSet> {
  await runProcess('git', ['add', '-A', '--intent-to-add'], { cwd: root, env });
  const diff = await runProcess('git', ['diff', '-U0', '--no-color', 'HEAD'], { cwd: root, env });
  const files = parsePatch(diff.stdout).map((file) => {
    const ranges = toRanges(file.added.map((item) => item.line));
    return {
      path: file.path,
      status: 'modified' as const,
      binary: file.binary,
      addedLines: ranges,
      changedLines: ranges,
      size: 0,
    };
  });
  const { readFile } = await import('node:fs/promises');
  const read = async (path: string) => readFile(join(root, path)).catch(() => null);
  return {
    root,
    base: { ref: 'HEAD', commit: null, source: 'head' },
    files,
    ignored: [],
    skipped: [],
    fingerprint: 'test',
    isEmpty: files.length === 0,
    head: null,
    hasCommits: false,
    readText: async (path) => (await read(path))?.toString('utf8') ?? null,
    readBytes: read,
    diff: async () => diff.stdout,
  };
}

export function secretsContext(
  root: string,
  changeSet: RepoChangeSet,
  options: unknown = {},
  input: SecretsInput = {},
): ToolContext<SecretsOptions, SecretsInput> & { progressLines: string[] } {
  return toolContext({
    repoRoot: root,
    changeSet,
    options: secretsOptionsSchema().parse(options),
    input,
    artifactsDir: join(root, '.tollgate', 'runs', 'r1', 'secrets'),
  });
}
