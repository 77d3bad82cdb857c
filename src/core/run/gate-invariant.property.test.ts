import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { registriesWith } from '../../../test/support/registries.js';
import { loadConfig } from '../config/load.js';
import { findingId } from '../finding.js';
import { defineTool } from '../pipeline/tool.js';
import { runProcess } from '../process.js';
import { result } from '../result.js';
import { readGateStatus } from './gate-status.js';
import { runGate } from './run-gate.js';
import { runValidationCall } from './validation-call.js';

/**
 * The gate's one promise, as a property: whatever sequence of edits, policy edits (a config that switches a validator
 * off or ignores files, an ignore list), scoped calls (explicit paths), partial runs (`--only`), full runs, index flags
 * (`--skip-worktree`, `--assume-unchanged`), a lying clean filter, A-B-A swaps during a run, and commits under a base
 * ref moved onto them (`update-ref refs/remotes/origin/main HEAD`) an agent makes, the
 * gate says "validated" only when the last full run of every enabled validator, under the policy at the base, on the
 * tree as it is now (its bytes on disk) passed; a policy edit never makes a run pass.
 */

/** The scan tool's suppression list, like `.gitleaksignore`: one path per line. It is policy (`policyFiles`). */
const IGNORE_LIST = '.scanignore';

/** Flags files containing "SECRET"; with `paths`, looks only at those (a scoped call). */
const scanTool = defineTool({
  name: 'scan',
  title: 'Scan',
  description: 'test scanner',
  configKey: 'scan',
  optionsSchema: z.object({}).strict().prefault({}),
  inputSchema: z.object({ paths: z.array(z.string()).optional() }).strict(),
  permissions: [],
  enabledByDefault: true,
  scopeOf: (input) => (input.paths?.length ? `paths ${input.paths.join(', ')}` : null),
  policyFiles: () => [IGNORE_LIST],
  run: async (ctx) => {
    const listed = (await ctx.policy?.read(`${ctx.repoRoot}/${IGNORE_LIST}`))?.toString('utf8').split('\n') ?? [];
    const files = ctx.changeSet.files
      .filter((file) => !ctx.input.paths?.length || ctx.input.paths.includes(file.path))
      .filter((file) => !listed.includes(file.path));
    const findings = [];
    for (const file of files) {
      if ((await ctx.changeSet.readText(file.path))?.includes('SECRET')) {
        const title = 'secret';
        findings.push({
          id: findingId({ validator: 'scan', path: file.path, title }),
          validator: 'scan',
          severity: 'high' as const,
          title,
          path: file.path,
          sources: ['scan'],
        });
      }
    }
    return findings.length > 0 ? result('failed', 'secrets', findings) : result('passed', 'clean');
  },
});

/** Flags files containing "TODO". */
const lintTool = defineTool({
  name: 'lint',
  title: 'Lint',
  description: 'test lint',
  configKey: 'lint',
  optionsSchema: z.object({}).strict().prefault({}),
  inputSchema: z.object({}).strict(),
  permissions: [],
  enabledByDefault: true,
  run: async (ctx) => {
    for (const file of ctx.changeSet.files) {
      if ((await ctx.changeSet.readText(file.path))?.includes('TODO')) return result('failed', 'todo left');
    }
    return result('passed', 'clean');
  },
});

/** The file the next full run's `swap` check swaps for a clean one while the others read, then restores (A-B-A). */
let swapDuringRun: string | null = null;

/** Stands for a project check that moves a file away, writes a clean one and puts the original back. */
const swapTool = defineTool({
  name: 'swap',
  title: 'Swap',
  description: 'test A-B-A check',
  configKey: 'swap',
  optionsSchema: z.object({}).strict().prefault({}),
  inputSchema: z.object({}).strict(),
  permissions: [],
  enabledByDefault: true,
  run: async () => {
    const file = swapDuringRun;
    if (file === null) return result('passed', 'nothing swapped');
    const original = await readFile(join(repo.root, file));
    await writeFile(join(repo.root, file), 'fine\n');
    await sleep(150);
    await writeFile(join(repo.root, file), original);
    return result('passed', `swapped ${file} and back`);
  },
});

const tools = [swapTool, scanTool, lintTool];
const FILES = ['a.txt', 'b.txt', 'c.txt'];
const CONTENTS = ['fine\n', 'SECRET=1\n', 'TODO\n', 'other\n'];

/** Edits of the policy by the change itself; the base has neither file. */
const POLICY_EDITS = {
  'switch scan off': ['tollgate.config.yaml', 'validation:\n  scan: { enabled: false }\n'],
  'ignore every file': ['tollgate.config.yaml', 'ignore: ["*.txt"]\n'],
  'ignore list': [IGNORE_LIST, `${FILES.join('\n')}\n`],
} as const;
const POLICY_FILES = ['tollgate.config.yaml', IGNORE_LIST];

type Step =
  | { kind: 'edit'; file: string; content: string }
  | { kind: 'remove'; file: string }
  | { kind: 'flag'; file: string; flag: '--skip-worktree' | '--assume-unchanged' }
  | { kind: 'filter'; file: string }
  | { kind: 'aba'; file: string }
  | { kind: 'policy'; edit: keyof typeof POLICY_EDITS | 'revert' }
  | { kind: 'move' }
  | { kind: 'scoped'; file: string }
  | { kind: 'full' }
  | { kind: 'only'; tool: 'scan' | 'lint' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('edit' as const),
    file: fc.constantFrom(...FILES),
    content: fc.constantFrom(...CONTENTS),
  }),
  fc.record({ kind: fc.constant('remove' as const), file: fc.constantFrom(...FILES) }),
  fc.record({
    kind: fc.constant('flag' as const),
    file: fc.constantFrom(...FILES),
    flag: fc.constantFrom('--skip-worktree' as const, '--assume-unchanged' as const),
  }),
  fc.record({ kind: fc.constant('filter' as const), file: fc.constantFrom(...FILES) }),
  fc.record({ kind: fc.constant('aba' as const), file: fc.constantFrom(...FILES) }),
  fc.record({
    kind: fc.constant('policy' as const),
    edit: fc.constantFrom(
      'switch scan off' as const,
      'ignore every file' as const,
      'ignore list' as const,
      'revert' as const,
    ),
  }),
  fc.record({ kind: fc.constant('move' as const) }),
  fc.record({ kind: fc.constant('scoped' as const), file: fc.constantFrom(...FILES) }),
  fc.record({ kind: fc.constant('full' as const) }),
  fc.record({ kind: fc.constant('only' as const), tool: fc.constantFrom('scan' as const, 'lint' as const) }),
);

let repo: TempRepo;
/** The base every case starts from: what `origin/main` was when it was fetched. */
let initial: string;
beforeAll(async () => {
  repo = await createTempRepo({ files: { 'README.md': '# x\n' } });
  // A clean filter that stores every file it is given as the clean "fine": git itself would see no SECRET or TODO.
  await repo.git('config', 'filter.hide.clean', 'printf "fine\\n"');
  // An upstream, fetched once: the base is the merge-base with origin/main, and its reflog remembers the fetch.
  const remote = join(repo.root, '.git', 'origin.git');
  await repo.git('clone', '-q', '--bare', repo.root, remote);
  await repo.git('remote', 'add', 'origin', remote);
  await repo.git('fetch', '-q', 'origin');
  await repo.git('branch', '-q', '--set-upstream-to=origin/main');
  initial = (await repo.git('rev-parse', 'HEAD')).trim();
});

/**
 * The agent commits the files as they are on disk (bytes, whatever its flags and filters) and moves the base ref onto
 * that commit (`git update-ref refs/remotes/origin/main HEAD`): the change must stay what it was.
 */
async function commitAndMoveBase(): Promise<void> {
  const env = { ...repo.env, GIT_INDEX_FILE: join(repo.root, '.git', 'move-index') };
  const git = async (...args: string[]) => {
    const run = await runProcess('git', args, { cwd: repo.root, env });
    if (run.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
    return run.stdout.trim();
  };
  await git('read-tree', 'HEAD');
  for (const file of FILES) {
    const bytes = await readFile(join(repo.root, file)).catch(() => null);
    if (bytes === null) continue;
    const id = await git('hash-object', '-w', '--no-filters', '--', file);
    await git('update-index', '--add', '--cacheinfo', `100644,${id},${file}`);
  }
  const commit = await git('commit-tree', await git('write-tree'), '-p', 'HEAD', '-m', 'move the base');
  await git('update-ref', 'HEAD', commit);
  await git('update-ref', 'refs/remotes/origin/main', commit);
}

/** Index flags and filters: the agent's ways to make git look away from a file's bytes. */
async function hide(current: Extract<Step, { kind: 'flag' | 'filter' }>, content: ReadonlyMap<string, string>) {
  if (current.kind === 'filter') {
    await appendFile(join(repo.root, '.git', 'info', 'attributes'), `${current.file} filter=hide\n`);
  } else if (content.has(current.file)) {
    await repo.git('add', '--', current.file);
    await repo.git('update-index', current.flag, '--', current.file);
  }
}
afterAll(() => repo.cleanup());

/**
 * A skip-worktree entry whose file is gone is not checked out (a sparse checkout), not deleted: the change still holds
 * the index's content, and a commit would too. Null when the path has no such entry.
 */
async function sparseEntry(file: string): Promise<string | null> {
  const tag = (await repo.git('ls-files', '-v', '--', file)).slice(0, 1);
  if (tag !== 'S' && tag !== 's') return null;
  return await repo.git('show', `:${file}`);
}

describe('the gate invariant', () => {
  test('validated only after a full passing run of every enabled validator on the current tree', async () => {
    const registries = registriesWith(tools);
    /** The config as the gate loads it: the base's policy, the pending edits listed. */
    const gateConfig = async () => {
      const loaded = await loadConfig({ repoRoot: repo.root, cwd: repo.root, env: {}, tools, registries });
      const { config, hash: configHash, policy } = loaded;
      return { repoRoot: repo.root, config, configHash, version: 'test', ...(policy ? { policy } : {}) };
    };
    let session = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        await repo.remove('.tollgate');
        await repo.git('reset', '-q', '--soft', initial);
        await repo.git('update-ref', 'refs/remotes/origin/main', initial);
        // The index as the base has it, flags and all gone (`git rm --cached` leaves skip-worktree entries alone).
        await repo.git('read-tree', initial);
        await writeFile(join(repo.root, '.git', 'info', 'attributes'), '');
        swapDuringRun = null;
        for (const file of [...FILES, ...POLICY_FILES]) await repo.remove(file);
        const content = new Map<string, string>();
        const policyEdits = new Map<string, string>();
        /** The model: the clean trees (by content) that a full run looked at. */
        const passedTrees = new Set<string>();
        const treeKey = () => JSON.stringify([...content.entries(), ...policyEdits.entries()].sort());
        for (const current of steps) {
          const base = await gateConfig();
          if (current.kind === 'edit') {
            content.set(current.file, current.content);
            await repo.write(current.file, current.content);
          } else if (current.kind === 'remove') {
            await repo.remove(current.file);
            const staged = await sparseEntry(current.file);
            if (staged === null) content.delete(current.file);
            else content.set(current.file, staged);
          } else if (current.kind === 'flag' || current.kind === 'filter') {
            await hide(current, content);
          } else if (current.kind === 'aba') {
            if (content.has(current.file)) swapDuringRun = current.file;
          } else if (current.kind === 'move') {
            await commitAndMoveBase();
          } else if (current.kind === 'policy') {
            if (current.edit === 'revert') {
              for (const file of POLICY_FILES) await repo.remove(file);
              policyEdits.clear();
            } else {
              const [file, text] = POLICY_EDITS[current.edit];
              policyEdits.set(file, text);
              await repo.write(file, text);
            }
          } else if (current.kind === 'scoped') {
            session += 1;
            await runValidationCall({
              ...base,
              callName: 'scan',
              registry: tools,
              calls: [{ tool: scanTool, arguments: { paths: [current.file] } }],
              declarations: new Map(),
              complete: false,
              sessionId: `property-${session}`,
            });
          } else {
            const report = await runGate({
              ...base,
              tools,
              command: 'test',
              ...(current.kind === 'only' ? { only: [current.tool] } : {}),
            });
            // Only the model decides what passes: a clean tree (no SECRET, no TODO) after a full run over it, with the
            // policy as the base has it (no edit pending).
            const clean =
              policyEdits.size === 0 &&
              [...content.values()].every((text) => !text.includes('SECRET') && !text.includes('TODO'));
            if (current.kind === 'full' && clean) passedTrees.add(treeKey());
            if (current.kind === 'full')
              expect(report.verdict, JSON.stringify(steps)).toBe(clean ? 'passed' : 'failed');
            swapDuringRun = null;
          }
          const status = await readGateStatus({ ...(await gateConfig()), tools });
          const treeIsEmpty = content.size === 0 && policyEdits.size === 0;
          if (status.state === 'validated' && !treeIsEmpty) {
            expect(passedTrees.has(treeKey()), JSON.stringify(steps)).toBe(true);
          }
        }
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});
