import {
  access,
  appendFile,
  chmod,
  constants,
  lstat,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createTempRepo, type TempRepo } from '../../../test/support/git-repo.js';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { registriesWith } from '../../../test/support/registries.js';
import { builtinRules } from '../../secrets/rules/index.js';
import { fakeChecksumToken } from '../../secrets/sample-tokens.js';
import { scanBatches } from '../../secrets/scan-targets.js';
import { SecretScanner } from '../../secrets/scanner.js';
import { historyBatches } from '../../secrets/sources/git-sources.js';
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
 * (`--skip-worktree`, `--assume-unchanged`), a lying clean filter, A-B-A swaps during a run, commits under a base
 * ref moved onto them (`update-ref refs/remotes/origin/main HEAD`, a fetch from the repository itself, a reflog line
 * forged to say "fetch"), replace refs and grafts over the base, plain commits, files staged then edited, renamed
 * (`git mv`, `mv`), replaced by symbolic links, made executable or unreadable (`chmod`) an agent makes, the
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
    // Only a regular file it can read: the check swaps a file, it does not fail on one that went away meanwhile.
    const isFile = file !== null && (await lstat(join(repo.root, file)).catch(() => null))?.isFile();
    const original = isFile ? await readFile(join(repo.root, file)).catch(() => null) : null;
    if (file === null || original === null) return result('passed', 'nothing swapped');
    await writeFile(join(repo.root, file), 'fine\n');
    await sleep(150);
    await writeFile(join(repo.root, file), original);
    return result('passed', `swapped ${file} and back`);
  },
});

/**
 * The secret scanner's history scan, as the secrets validator runs it: every commit since the base, each blob decoded
 * as the tree's files are (binary content for its printable runs, UTF-32 as text).
 */
const historyScanner = new SecretScanner(builtinRules);
const historyTool = defineTool({
  name: 'history',
  title: 'History',
  description: 'test history scan',
  configKey: 'history',
  optionsSchema: z.object({}).strict().prefault({}),
  inputSchema: z.object({}).strict(),
  permissions: [],
  enabledByDefault: true,
  // As the secrets validator: the commits since the base are its input too, so an empty tree diff does not skip it
  // (a secret committed and deleted leaves the tree as the base has it).
  readsHistory: true,
  run: async (ctx) => {
    const { base, head } = ctx.changeSet;
    if (head === null || base.commit === null) return result('passed', 'no commits');
    const listed = await runProcess('git', ['rev-list', `${base.commit}..${head}`, '--'], { cwd: ctx.repoRoot });
    const commits = listed.stdout.split('\n').filter(Boolean);
    const batches = historyBatches({ repoRoot: ctx.repoRoot, range: head, commits });
    const outcome = await scanBatches(batches, { scanner: historyScanner });
    return outcome.findings.length > 0 ? result('failed', 'a secret in history') : result('passed', 'clean');
  },
});

const tools = [swapTool, scanTool, lintTool, historyTool];
const FILES = ['a.txt', 'b.txt', 'c.txt'];
const CONTENTS = ['fine\n', 'SECRET=1\n', 'TODO\n', 'other\n'];

/** Edits of the policy by the change itself; the base has neither file. */
const POLICY_EDITS = {
  'switch scan off': ['tollgate.config.yaml', 'validation:\n  scan: { enabled: false }\n'],
  'ignore every file': ['tollgate.config.yaml', 'ignore: ["*.txt"]\n'],
  'ignore list': [IGNORE_LIST, `${FILES.join('\n')}\n`],
} as const;
const POLICY_FILES = ['tollgate.config.yaml', IGNORE_LIST];

/** A file committed with a secret (binary, or UTF-32 text) and perhaps deleted by a later commit. */
const SECRET_FILE = 'vault.dat';
const HISTORY_SECRET = fakeChecksumToken('ghp_', 'gate-invariant-history');
const SECRET_BYTES = {
  binary: Buffer.from(`\0TOKEN=${HISTORY_SECRET}\n`),
  'utf-32': Buffer.from([...`TOKEN=${HISTORY_SECRET}\n`].flatMap((char) => [char.charCodeAt(0), 0, 0, 0])),
};

/** Two different files, in order: what `mv` and `ln -s` take. */
const FILE_PAIRS = FILES.flatMap((from) => FILES.filter((to) => to !== from).map((to) => [from, to] as const));

type Step =
  | { kind: 'edit'; file: string; content: string }
  | { kind: 'stage'; file: string; content: string }
  | { kind: 'commit' }
  | { kind: 'chmod'; file: string; mode: 'none' | '+x' }
  | { kind: 'symlink'; file: string; target: string }
  | { kind: 'rename'; from: string; to: string; git: boolean }
  | { kind: 'remove'; file: string }
  | { kind: 'flag'; file: string; flag: '--skip-worktree' | '--assume-unchanged' }
  | { kind: 'filter'; file: string }
  | { kind: 'aba'; file: string }
  | { kind: 'policy'; edit: keyof typeof POLICY_EDITS | 'revert' }
  | { kind: 'move' }
  | { kind: 'scoped'; file: string }
  | { kind: 'full' }
  | { kind: 'only'; tool: 'scan' | 'lint' }
  | { kind: 'commit secret'; encoding: keyof typeof SECRET_BYTES }
  | { kind: 'delete secret' }
  | GitTrustStep;

/**
 * What an agent does to git itself so that its commit looks like the base: a fetch from the repository itself and a
 * reflog line that says "fetch" (both move `origin/main` onto the files as on disk, committed), a replacement of the
 * base commits by that commit, and a graft that makes it a parent of the first base (so it looks trusted).
 */
type GitTrustStep = { kind: 'git'; attack: 'self-fetch' | 'forged-reflog' | 'replace' | 'graft' };
const gitTrustStep: fc.Arbitrary<GitTrustStep> = fc.record({
  kind: fc.constant('git' as const),
  attack: fc.constantFrom('self-fetch' as const, 'forged-reflog' as const, 'replace' as const, 'graft' as const),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('edit' as const),
    file: fc.constantFrom(...FILES),
    content: fc.constantFrom(...CONTENTS),
  }),
  fc.record({ kind: fc.constant('remove' as const), file: fc.constantFrom(...FILES) }),
  fc.record({
    kind: fc.constant('stage' as const),
    file: fc.constantFrom(...FILES),
    content: fc.constantFrom(...CONTENTS),
  }),
  fc.record({ kind: fc.constant('commit' as const) }),
  fc.record({
    kind: fc.constant('chmod' as const),
    file: fc.constantFrom(...FILES),
    mode: fc.constantFrom('none' as const, '+x' as const),
  }),
  fc.constantFrom(...FILE_PAIRS).map(([file, target]) => ({ kind: 'symlink' as const, file, target })),
  fc
    .tuple(fc.constantFrom(...FILE_PAIRS), fc.boolean())
    .map(([[from, to], git]) => ({ kind: 'rename' as const, from, to, git })),
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
  fc.record({
    kind: fc.constant('commit secret' as const),
    encoding: fc.constantFrom('binary' as const, 'utf-32' as const),
  }),
  fc.record({ kind: fc.constant('delete secret' as const) }),
  gitTrustStep,
);

/** Whether a commit of this case holds the secret (`commit secret`): no deletion takes it out of the history. */
let secretInHistory = false;

/** Commits the secret file alone, or its deletion; nothing when git refuses. */
async function commitSecretFile(current: Extract<Step, { kind: 'commit secret' | 'delete secret' }>) {
  const commit = () => repo.git('commit', '-q', '-m', current.kind, '--', SECRET_FILE);
  if (current.kind === 'delete secret') {
    await repo.git('rm', '-q', '--', SECRET_FILE).then(commit, () => {});
    return;
  }
  await writeFile(join(repo.root, SECRET_FILE), SECRET_BYTES[current.encoding]);
  await repo.git('add', '--', SECRET_FILE);
  await commit().then(
    () => {
      secretInHistory = true;
    },
    () => {},
  );
}

let repo: TempRepo;
/** The base every case starts from: what `origin/main` was when it was fetched. */
let initial: string;
/** The base ref's reflog right after the fetch; every case starts from it (see the reset in the property). */
let fetchedReflog: string;
const reflogPath = () => join(repo.root, '.git', 'logs', 'refs', 'remotes', 'origin', 'main');
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
  fetchedReflog = await readFile(reflogPath(), 'utf8');
});

/**
 * The agent commits the files as they are on disk (bytes and modes, whatever its flags and filters) and moves the base
 * ref onto that commit (`git update-ref refs/remotes/origin/main HEAD`): the change must stay what it was.
 */
async function commitAndMoveBase(): Promise<void> {
  const commit = await commitOnDisk({ moveHead: true });
  await repo.git('update-ref', 'refs/remotes/origin/main', commit);
}

/** A commit of the files as they are on disk on top of HEAD (HEAD moved onto it when asked), through a private index. */
async function commitOnDisk(options: { moveHead: boolean }): Promise<string> {
  const env = { ...repo.env, GIT_INDEX_FILE: join(repo.root, '.git', 'move-index') };
  const git = async (args: string[], input?: string) => {
    const run = await runProcess('git', args, {
      cwd: repo.root,
      env,
      gitAsConfigured: true,
      ...(input !== undefined ? { input } : {}),
    });
    if (run.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
    return run.stdout.trim();
  };
  await git(['read-tree', 'HEAD']);
  for (const file of FILES) {
    const entry = await onDisk(file);
    if (entry === null || entry.kind === 'unreadable') continue;
    const id = await git(['hash-object', '-w', '--no-filters', '--stdin'], entry.text);
    await git(['update-index', '--add', '--cacheinfo', `${GIT_MODES[entry.kind]},${id},${file}`]);
  }
  const commit = await git(['commit-tree', await git(['write-tree']), '-p', 'HEAD', '-m', 'move the base']);
  if (options.moveHead) await git(['update-ref', 'HEAD', commit]);
  return commit;
}

/** The agent's ways to make git itself show its commit as the base (GitTrustStep). */
async function attackGit(current: GitTrustStep): Promise<void> {
  if (current.attack === 'self-fetch' || current.attack === 'forged-reflog') {
    await commitOnDisk({ moveHead: true });
    if (current.attack === 'self-fetch') await repo.git('fetch', '-q', '.', '+HEAD:refs/remotes/origin/main');
    else await repo.git('update-ref', '-m', 'fetch: fast-forward', 'refs/remotes/origin/main', 'HEAD');
  } else if (current.attack === 'replace') {
    const standIn = await commitOnDisk({ moveHead: false });
    const bases = new Set([initial, (await repo.git('rev-parse', 'refs/remotes/origin/main')).trim()]);
    for (const base of bases) if (base !== standIn) await repo.git('replace', '-f', base, standIn);
    await repo.git('config', 'core.useReplaceRefs', 'true');
  } else {
    const commit = await commitOnDisk({ moveHead: true });
    await repo.git('update-ref', 'refs/remotes/origin/main', commit);
    await writeFile(join(repo.root, '.git', 'info', 'grafts'), `${initial} ${commit}\n`);
  }
}

/** Every case starts with no replace refs and no grafts. */
async function resetGitTrust(): Promise<void> {
  await rm(join(repo.root, '.git', 'info', 'grafts'), { force: true });
  await repo.git('config', '--unset-all', 'core.useReplaceRefs').catch(() => {});
  const replaced = (await repo.git('for-each-ref', '--format=%(refname)', 'refs/replace/')).split('\n');
  for (const ref of replaced.filter(Boolean)) await repo.git('update-ref', '-d', ref);
}

/** Index flags and filters: the agent's ways to make git look away from a file's bytes. */
async function hide(current: Extract<Step, { kind: 'flag' | 'filter' }>) {
  if (current.kind === 'filter') {
    await appendFile(join(repo.root, '.git', 'info', 'attributes'), `${current.file} filter=hide\n`);
  } else if ((await onDisk(current.file)) !== null) {
    await repo.git('add', '--', current.file).catch(() => {});
    await repo.git('update-index', current.flag, '--', current.file).catch(() => {});
  }
}
afterAll(() => repo.cleanup());

/** One path of the change as the model sees it: its git entry kind and content (a symlink's content is its target). */
interface Entry {
  kind: 'file' | 'exec' | 'link' | 'unreadable';
  text: string;
}
const GIT_MODES = { file: '100644', exec: '100755', link: '120000' } as const;

/** What `git add -A` would stage for a path from its bytes on disk; null when nothing is there. */
async function onDisk(file: string): Promise<Entry | null> {
  const path = join(repo.root, file);
  const stats = await lstat(path).catch(() => null);
  if (stats === null) return null;
  if (stats.isSymbolicLink()) return { kind: 'link', text: await readlink(path) };
  const bytes = await readFile(path).catch(() => null);
  if (bytes === null) return { kind: 'unreadable', text: '' };
  // git records only the owner's execute bit.
  return { kind: stats.mode & 0o100 ? 'exec' : 'file', text: bytes.toString('utf8') };
}

/**
 * The skip-worktree entries among `files` (path → mode), from one `git ls-files`: a skip-worktree entry whose file is
 * gone is not checked out (a sparse checkout), not deleted: the change still holds the index's content, and a commit
 * would too.
 */
async function sparseModes(files: readonly string[]): Promise<Map<string, string>> {
  const modes = new Map<string, string>();
  if (files.length === 0) return modes;
  for (const line of (await repo.git('ls-files', '-v', '-s', '--', ...files)).split('\n')) {
    const match = /^([Ss]) (\d{6}) \S+ \d\t(.+)$/.exec(line);
    if (match) modes.set(match[3]!, match[2]!);
  }
  return modes;
}

/** The model of the change: every file's entry as on disk, or as its skip-worktree entry holds it when not on disk. */
async function observeTree(): Promise<Map<string, Entry>> {
  const tree = new Map<string, Entry>();
  const missing: string[] = [];
  for (const file of FILES) {
    const entry = await onDisk(file);
    if (entry === null) missing.push(file);
    else tree.set(file, entry);
  }
  for (const [file, mode] of await sparseModes(missing)) {
    const kind = mode === GIT_MODES.link ? 'link' : mode === GIT_MODES.exec ? 'exec' : 'file';
    tree.set(file, { kind, text: await repo.git('show', `:${file}`) });
  }
  return tree;
}

/** Writes a file the way an editor saves it: a symlink is replaced, not written through; a locked file is unlocked. */
async function save(file: string, text: string): Promise<void> {
  const path = join(repo.root, file);
  const stats = await lstat(path).catch(() => null);
  if (stats?.isSymbolicLink()) await rm(path);
  else if (
    stats &&
    !(await access(path, constants.R_OK | constants.W_OK).then(
      () => true,
      () => false,
    ))
  ) {
    await chmod(path, 0o644);
  }
  await repo.write(file, text);
}

/** What an agent with a shell does to the files and the index (never a run); failed commands change nothing. */
async function act(current: Step): Promise<void> {
  const path = (file: string) => join(repo.root, file);
  const ignore = () => {};
  if (current.kind === 'edit') {
    await save(current.file, current.content);
  } else if (current.kind === 'stage') {
    await repo.git('add', '--', current.file).catch(ignore);
    await save(current.file, current.content);
  } else if (current.kind === 'remove') {
    await repo.remove(current.file);
  } else if (current.kind === 'commit') {
    await repo.git('commit', '-q', '-a', '--allow-empty', '-m', 'x').catch(ignore);
  } else if (current.kind === 'chmod') {
    // Like chmod(1), follows a symlink to its target.
    const mode = current.mode === 'none' ? 0 : ((await stat(path(current.file)).catch(() => null))?.mode ?? 0) | 0o111;
    await chmod(path(current.file), mode).catch(ignore);
  } else if (current.kind === 'symlink') {
    await repo.remove(current.file);
    await symlink(current.target, path(current.file));
  } else if (current.kind === 'rename') {
    if (current.git) await repo.git('mv', '--', current.from, current.to).catch(ignore);
    else await rename(path(current.from), path(current.to)).catch(ignore);
  } else if (current.kind === 'flag' || current.kind === 'filter') {
    await hide(current);
  } else if (current.kind === 'aba') {
    swapDuringRun = current.file;
  } else if (current.kind === 'move') {
    await commitAndMoveBase();
  } else if (current.kind === 'commit secret' || current.kind === 'delete secret') {
    await commitSecretFile(current);
  } else if (current.kind === 'git') {
    await attackGit(current);
  }
}

/**
 * Cases run before the random ones, every time (fast-check counts them in `numRuns`): a counterexample fast-check once reported (full runs of an empty tree,
 * `--skip-worktree` of a file that is not there, a scoped scan of it, then the file written with a secret: the gate
 * must not say "validated"), and each git attack on a tree with a secret, which a full run must fail.
 */
const FIXED_CASES: Step[][] = [
  // A secret committed and deleted: the tree is the base's again, the history is not (fast-check found it).
  [{ kind: 'commit secret', encoding: 'binary' }, { kind: 'delete secret' }, { kind: 'full' }],
  [
    { kind: 'only', tool: 'scan' },
    { kind: 'full' },
    { kind: 'flag', file: 'a.txt', flag: '--skip-worktree' },
    { kind: 'scoped', file: 'a.txt' },
    { kind: 'edit', file: 'a.txt', content: 'SECRET=1\n' },
  ],
  ...(['self-fetch', 'forged-reflog', 'replace', 'graft'] as const).map((attack): Step[] => [
    { kind: 'edit', file: 'a.txt', content: 'SECRET=1\n' },
    { kind: 'git', attack },
    { kind: 'full' },
  ]),
];

/** `TOLLGATE_PROPERTY_SEED=<n>` replays the cases of a seed fast-check reported (with the same arbitraries). */
function seedFromEnv(): { seed?: number } {
  const given = process.env.TOLLGATE_PROPERTY_SEED;
  if (given === undefined || given === '') return {};
  const seed = Number(given);
  if (!Number.isInteger(seed))
    throw new Error(`TOLLGATE_PROPERTY_SEED: expected an integer, got ${JSON.stringify(given)}`);
  return { seed };
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
        await resetGitTrust();
        await repo.git('reset', '-q', '--soft', initial);
        await repo.git('update-ref', 'refs/remotes/origin/main', initial);
        // The base ref's reflog as the fetch left it: each case is one session, not the sequel of earlier cases' moves.
        await writeFile(reflogPath(), fetchedReflog);
        // The index as the base has it, flags and all gone (`git rm --cached` leaves skip-worktree entries alone).
        await repo.git('read-tree', initial);
        await writeFile(join(repo.root, '.git', 'info', 'attributes'), '');
        swapDuringRun = null;
        secretInHistory = false;
        for (const file of [...FILES, ...POLICY_FILES, SECRET_FILE]) await repo.remove(file);
        const policyEdits = new Map<string, string>();
        /** The model: the clean trees (by content) that a full run looked at. */
        const passedTrees = new Set<string>();
        for (const current of steps) {
          const base = await gateConfig();
          await act(current);
          const tree = await observeTree();
          const treeKey = JSON.stringify([...tree.entries(), ...policyEdits.entries()].sort());
          if (current.kind === 'commit secret' && secretInHistory) {
            // A full run right after: the secret's commit fails it, whatever the tree holds now.
            const report = await runGate({ ...base, tools, command: 'test' });
            expect(report.verdict, JSON.stringify(steps)).not.toBe('passed');
            swapDuringRun = null;
          }
          if (current.kind === 'policy') {
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
          } else if (current.kind === 'full' || current.kind === 'only') {
            const report = await runGate({
              ...base,
              tools,
              command: 'test',
              ...(current.kind === 'only' ? { only: [current.tool] } : {}),
            });
            // Only the model decides what passes: a clean tree (no SECRET, no TODO, every file readable) after a full
            // run over it, with the policy as the base has it (no edit pending). No run passes over a file it cannot
            // read.
            const entries = [...tree.values()];
            const readable = entries.every((entry) => entry.kind !== 'unreadable');
            const clean =
              policyEdits.size === 0 &&
              !secretInHistory &&
              readable &&
              entries.every(({ text }) => !text.includes('SECRET') && !text.includes('TODO'));
            if (current.kind === 'full' && clean) passedTrees.add(treeKey);
            if (current.kind === 'full' && readable) {
              expect(report.verdict, JSON.stringify(steps)).toBe(clean ? 'passed' : 'failed');
            } else if (current.kind === 'full') {
              expect(report.verdict, JSON.stringify(steps)).not.toBe('passed');
            }
            swapDuringRun = null;
          }
          const after = await observeTree();
          const afterKey = JSON.stringify([...after.entries(), ...policyEdits.entries()].sort());
          const status = await readGateStatus({ ...(await gateConfig()), tools });
          const treeIsEmpty = after.size === 0 && policyEdits.size === 0;
          if (status.state === 'validated' && !treeIsEmpty) {
            expect(passedTrees.has(afterKey), JSON.stringify(steps)).toBe(true);
          }
        }
      }),
      {
        numRuns: FIXED_CASES.length + propertyRuns(5, 20),
        examples: FIXED_CASES.map((steps) => [steps] as [Step[]]),
        ...seedFromEnv(),
      },
    );
  }, 480_000);
});
