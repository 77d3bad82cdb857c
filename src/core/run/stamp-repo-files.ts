import { type Dirent, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What a stamp asks `git rev-parse` (the work tree's root, the index, the object format and every ref), read from the
 * repository's own files instead, for the one layout where that reading is plain: a `.git` folder with the files ref
 * backend, as `git init` and `git clone` make it. A git process fewer per stamp (each git start costs more CPU than
 * what it reads here). Undefined, and the stamp asks git as before, for anything else: a variable that moves or
 * reconfigures git's look (GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS...), a `.git` file (linked worktrees,
 * submodules) or symlink, a repository with linked worktrees, a config that names a work tree, an include or any
 * extension (object format, ref storage, worktree config), a HEAD git would not take, a symlink or anything but files
 * and folders under `refs/`, or more loose refs than `MAX_LOOSE_REFS`.
 *
 * Why this is as strict as `rev-parse --all --symbolic-full-name --all`: with the files backend, every ref git lists
 * is a loose file under `refs/` or a line of `packed-refs` (a loose one wins), and a symbolic ref's target is itself
 * one of them; so every change to what rev-parse prints changes the bytes hashed here (every loose ref's name and
 * bytes, `packed-refs`, `HEAD`), which are more than it prints. The root is the folder holding the nearest `.git`
 * folder from `cwd`'s real path: where git's own search stops when no variable moves it and the config names no
 * other work tree; a `.git` git would pass over (no `HEAD`, `objects/` or `refs/`) sends this to git too. Where git's
 * search ends elsewhere (a bare-looking folder below, a file system boundary, a repository owned by another user),
 * the stamp's `git status` fails, and a stamp whose status failed vouches for nothing.
 */
export interface RepoFiles {
  top: string;
  indexPath: string;
  objectFormat: string;
  /** Every ref file's name and bytes, `packed-refs` and `HEAD`; empty unless asked for. */
  refs: string;
}

/**
 * Variables that change only who git says the author is, how it asks, how it reaches a remote or which global config
 * files it reads: none moves the repository or names another work tree.
 */
const HARMLESS_GIT_ENV = new Set([
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_SYSTEM',
  'GIT_TERMINAL_PROMPT',
  'GIT_ASKPASS',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_PAGER',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_SSL_CAINFO',
  'GIT_SSL_CAPATH',
]);
const MAX_LOOSE_REFS = 2000;
/** Words in the repository's config (any case) that may move the work tree or change how refs and objects are kept. */
const CONFIG_WORDS = /worktree|extensions|include/i;
const HEAD_LINE = /^(?:ref: refs\/[^\s]+|[0-9a-f]{40})\n$/;

/** The repository's facts from its files; undefined when git must be asked (see above). */
export function repoFilesOf(cwd: string, env: NodeJS.ProcessEnv, withRefs: boolean): RepoFiles | undefined {
  if (process.platform === 'win32') return undefined;
  for (const key of Object.keys(env)) if (key.startsWith('GIT_') && !HARMLESS_GIT_ENV.has(key)) return undefined;
  try {
    const top = nearestDotGit(realpathSync(cwd));
    if (top === undefined) return undefined;
    const gitDir = join(top, '.git');
    const head = plainGitDir(gitDir);
    if (head === undefined) return undefined;
    const refs = withRefs ? refsText(gitDir, head) : '';
    if (refs === undefined) return undefined;
    return { top, indexPath: join(gitDir, 'index'), objectFormat: 'sha1', refs };
  } catch {
    return undefined;
  }
}

/** The folder holding the nearest `.git` folder; undefined when the nearest `.git` is anything else, or none. */
function nearestDotGit(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    const info = lstatSync(join(dir, '.git'), { throwIfNoEntry: false });
    if (info) return info.isDirectory() ? dir : undefined;
    if (dirname(dir) === dir) return undefined;
  }
}

/** HEAD's bytes when `gitDir` is a repository of the plain layout (see above); undefined otherwise. */
function plainGitDir(gitDir: string): string | undefined {
  const entries = new Map(readdirSync(gitDir, { withFileTypes: true }).map((entry) => [entry.name, entry]));
  const isDir = (name: string) => entries.get(name)?.isDirectory() === true;
  const isFile = (name: string) => entries.get(name)?.isFile() === true;
  if (!isDir('objects') || !isDir('refs') || !isFile('HEAD') || !isFile('config')) return undefined;
  if (entries.has('commondir') || entries.has('worktrees') || entries.has('reftable')) return undefined;
  // UTF-8 here only for speed: an ASCII word is the same word whatever the bytes around it decode to.
  if (CONFIG_WORDS.test(readFileSync(join(gitDir, 'config'), 'utf8'))) return undefined;
  const head = exactText(join(gitDir, 'HEAD'));
  return head !== undefined && HEAD_LINE.test(head) ? head : undefined;
}

/**
 * A file's text when its bytes are UTF-8 that decodes to exactly them (undefined for any other bytes, which the caller
 * leaves to git): so distinct bytes are never one text, and every change to a ref file changes the refs' text. Node
 * reads a file as UTF-8 in one call, without the `Stats`, buffers and helpers of its other encodings (Latin-1 here
 * cost a fast path 0.15-0.4 ms of CPU, docs/benchmarks.md "The fast paths' answers"). The decoder turns every byte it
 * cannot decode into U+FFFD, so a text without one is its bytes' exact decoding; a file that holds U+FFFD itself is
 * left to git too.
 */
export function exactText(path: string): string | undefined {
  const text = readFileSync(path, 'utf8');
  return text.includes('\uFFFD') ? undefined : text;
}

/** HEAD, `packed-refs` and every loose ref's name and bytes, in a fixed order; undefined for anything unexpected. */
function refsText(gitDir: string, head: string): string | undefined {
  const parts = [`HEAD\0${head}`];
  let packed: string;
  try {
    const text = exactText(join(gitDir, 'packed-refs'));
    if (text === undefined) return undefined;
    packed = text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    packed = '-';
  }
  parts.push(`packed-refs\0${packed}`);
  const loose: string[] = [];
  if (!listLooseRefs(gitDir, 'refs', loose)) return undefined;
  for (const name of loose.sort()) {
    const text = exactText(join(gitDir, name));
    if (text === undefined) return undefined;
    parts.push(`${name}\0${text}`);
  }
  return parts.join('\0');
}

/** Adds every file under `gitDir/relative` to `into`; false at a symlink, a special file or too many refs. */
function listLooseRefs(gitDir: string, relative: string, into: string[]): boolean {
  let entries: Dirent[];
  entries = readdirSync(join(gitDir, relative), { withFileTypes: true });
  for (const entry of entries) {
    const name = `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!listLooseRefs(gitDir, name, into)) return false;
    } else if (entry.isFile()) {
      into.push(name);
      if (into.length > MAX_LOOSE_REFS) return false;
    } else return false;
  }
  return true;
}
