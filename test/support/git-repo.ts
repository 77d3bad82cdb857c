import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runProcess } from '../../src/core/process.js';
import { createTempHome, removeDir, tempDir } from './temp-home.js';
import { timeBudget } from './time-budget.js';

export { createTempHome, isolateProcessEnv, removeDir, tempDir } from './temp-home.js';

/**
 * A real git repository in a temp directory, for tests. It has its own private HOME and global git config (see
 * `createTempHome`), so it never reads or writes the developer's config.
 *
 *   const repo = await createTempRepo({ files: { 'src/a.ts': 'export {};\n' } }); // one commit on `main`
 *   await repo.write('src/a.ts', 'changed\n');
 *   const head = (await repo.git('rev-parse', 'HEAD')).trim();
 *   await repo.cleanup();
 */
export interface TempRepo {
  /** Absolute, symlink-free path of the work tree root. */
  root: string;
  /** The private HOME. */
  home: string;
  /** Environment for every child process the test runs against this repo (private HOME and git config). */
  env: NodeJS.ProcessEnv;
  /** Runs `git <args>` in `root`; resolves to raw stdout (not trimmed), rejects with stderr on a non-zero exit. */
  git(...args: string[]): Promise<string>;
  /** Writes a file (creating its folders), path relative to `root`. */
  write(path: string, content: string | Buffer): Promise<void>;
  /** Removes a file or folder, path relative to `root`. */
  remove(path: string): Promise<void>;
  /** `git add -A` then `git commit` (allowed to be empty); resolves to the new HEAD commit id. */
  commit(message: string): Promise<string>;
  /**
   * Makes HEAD the base the way a merged change becomes it: pushed to an upstream (a bare repository beside the work
   * tree, made on first use) and fetched back, so `origin/main` is HEAD and its reflog says so. A commit on `main` alone
   * is not the base (tollgate pins the base to what it validated: docs/gate.md); a first run takes the fetched value.
   */
  publish(): Promise<void>;
  /** Removes the repository and the private HOME. */
  cleanup(): Promise<void>;
}

export interface CreateTempRepoOptions {
  /** Files to write, path (relative, POSIX) → content. */
  files?: Record<string, string | Buffer>;
  /** Commit the files as "initial" (default true; with no files and `commit: true` nothing is committed). */
  commit?: boolean;
  /** Make the repository here (an empty folder the test owns, e.g. on a small file system) instead of a temp dir. */
  root?: string;
}

export async function createTempRepo(options: CreateTempRepoOptions = {}): Promise<TempRepo> {
  const tempHome = await createTempHome();
  const root = options.root ?? (await tempDir('tollgate-repo-'));
  if (options.root) await mkdir(root, { recursive: true });
  const { env } = tempHome;

  const git = async (...args: string[]): Promise<string> => {
    const result = await runProcess('git', args, {
      cwd: root,
      env,
      timeoutMs: timeBudget(30_000),
      maxOutputBytes: 256 * 1024 * 1024,
      // The test's git is the person's, with the repository's own config; tollgate's is tested through tollgate.
      gitAsConfigured: true,
    });
    if (result.exitCode !== 0) {
      throw new Error(
        `git ${args.join(' ')} failed (${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`,
      );
    }
    return result.stdout;
  };
  const write = async (path: string, content: string | Buffer): Promise<void> => {
    const target = join(root, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  };
  const remove = (path: string): Promise<void> => rm(join(root, path), { recursive: true, force: true });
  const commitAll = async (message: string): Promise<void> => {
    await git('add', '-A');
    await git('commit', '--quiet', '--allow-empty', '--no-verify', '-m', message);
  };
  const commit = async (message: string): Promise<string> => {
    await commitAll(message);
    return (await headFromFiles(root)) ?? (await git('rev-parse', 'HEAD')).trim();
  };

  await initRepository(root);
  const files = Object.entries(options.files ?? {});
  for (const [path, content] of files) await write(path, content);
  // No `rev-parse` for a commit nobody asked the id of: hundreds of repositories a run, a git process each.
  if (files.length > 0 && options.commit !== false) await commitAll('initial');

  const publish = async (): Promise<void> => {
    const remote = join(tempHome.home, 'origin.git');
    if (!existsSync(remote)) {
      await git('init', '--quiet', '--bare', remote);
      await git('remote', 'add', 'origin', remote);
    }
    // The upstream takes HEAD by fetching it (a push would also move origin/main here, logged as a push, not a fetch).
    await git('--git-dir', remote, 'fetch', '--quiet', root, '+HEAD:refs/heads/main');
    await git('fetch', '--quiet', 'origin');
    await git('branch', '--quiet', '--set-upstream-to=origin/main');
  };

  return {
    root,
    home: tempHome.home,
    env,
    git,
    write,
    remove,
    commit,
    publish,
    cleanup: async () => {
      await removeDir(root);
      await tempHome.cleanup();
    },
  };
}

/**
 * A clone of `origin` beside it (`<origin>-clone`), its `origin/main` written by `git clone` (no reflog entry of its
 * own), sharing origin's private HOME. Its `cleanup` removes the clone only; the caller still cleans up `origin`.
 */
export async function cloneRepo(origin: TempRepo): Promise<TempRepo> {
  const root = `${origin.root}-clone`;
  await origin.git('clone', '--quiet', origin.root, root);
  const git = (...args: string[]) => origin.git('-C', root, ...args);
  return {
    ...origin,
    root,
    git,
    write: async (path, content) => {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    },
    remove: (path) => rm(join(root, path), { recursive: true, force: true }),
    commit: async (message) => {
      await git('add', '-A');
      await git('commit', '--quiet', '--allow-empty', '--no-verify', '-m', message);
      return (await headFromFiles(root)) ?? (await git('rev-parse', 'HEAD')).trim();
    },
    cleanup: () => removeDir(root),
  };
}

/**
 * What `git init -b main` makes, written without a git process (the tests make hundreds of repositories a run, and a
 * git start costs about 20 ms of CPU): the layout, HEAD on `main`, and the config git writes on Linux. No sample hooks.
 */
async function initRepository(root: string): Promise<void> {
  const gitDir = join(root, '.git');
  for (const folder of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'hooks', 'info', 'branches'])
    await mkdir(join(gitDir, folder), { recursive: true });
  await writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(
    join(gitDir, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n',
  );
  await writeFile(
    join(gitDir, 'description'),
    "Unnamed repository; edit this file 'description' to name the repository.\n",
  );
  await writeFile(join(gitDir, 'info', 'exclude'), '');
}

/**
 * HEAD's commit id read from the repository's files where a commit just left it (a loose branch ref, or a detached
 * HEAD); undefined for anything else (packed refs, a symbolic ref elsewhere), which the caller asks `git rev-parse`.
 */
async function headFromFiles(root: string): Promise<string | undefined> {
  const gitDir = join(root, '.git');
  const head = (await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '')).trim();
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref: (refs\/heads\/[^\s]+)$/.exec(head)?.[1];
  if (!ref || ref.includes('..')) return undefined;
  const id = (await readFile(join(gitDir, ref), 'utf8').catch(() => '')).trim();
  return /^[0-9a-f]{40}$/.test(id) ? id : undefined;
}
