import { withKeptHeap } from '../kept-heap-env.js';
import { type DescribedEntry, describeDiff, describeRaw, describeSections } from './describe-diff.js';
import type { GitRunner } from './git.js';
import { PatchStream } from './patch-hunks.js';
import { MODE_GITLINK, MODE_TYPE_MASK, parseRawDiff, type RawEntry } from './raw-diff.js';

export interface ListChangesOptions {
  /** The base commit, or the empty tree. */
  from: string;
  /** Points git at the temporary index that holds the working tree. */
  env: Record<string, string>;
  /**
   * Told the changed paths as soon as git has listed them, before their patches: file-system work on them can then
   * run while git still writes the patches. Called once.
   */
  onListed?: (entries: readonly RawEntry[]) => void;
  /** Called when the patch is read and the rename pass, still running, is all that is left to wait for. */
  whileGitWorks?: () => void;
}

export interface ListedChanges {
  /** One entry per change, renames paired. */
  entries: DescribedEntry[];
  /** One entry per changed path, renames not paired (a rename is a deletion and an addition): the fingerprint's input. */
  paths: DescribedEntry[];
}

/** Plumbing ignores the porcelain settings (noprefix, color, external diff) that would change what we parse. */
export const DIFF_INDEX = [
  'diff-index',
  '--cached',
  '-z',
  '--raw',
  '--no-color',
  '--no-ext-diff',
  '--ignore-submodules=none',
];

/**
 * Hunks without context. A deletion's patch is its header alone (`--irreversible-delete`): nothing reads the lines a
 * deleted file had, and git then neither loads its blob nor prints it.
 */
const PATCH = ['-p', '-U0', '--irreversible-delete'];

/**
 * Every change between the base and the temporary index, with `-U0` hunks and renames.
 *
 * Rename detection is the slowest part of such a diff (about a third of it on the bench repository) and it can only
 * pair a deleted path with an added one (-M: no copies, no breaks). So the patch is made with `--no-renames`, and its
 * raw listing, which git prints before any patch, is read as it arrives: only when it holds both deletions and
 * additions does a second `diff-index -M --diff-filter=R` (no patch) run beside the rest of the patch to list the
 * renames, and a third, small diff limited to those pairs gives their patches. The patch itself is parsed as git writes
 * it (PatchStream), so little is left to do once git is done.
 */
export async function listChanges(git: GitRunner, options: ListChangesOptions): Promise<ListedChanges> {
  const { from } = options;
  // Every blob of the change is read and inflated, the tree's 20k entries diffed: glibc keeps its heap, in huge pages
  // (core/kept-heap-env.ts), for about a tenth less CPU on the bench's 20k files.
  const env = withKeptHeap(options.env, process.env, { hugePages: true });
  const watcher = new RawListingWatcher();
  let renamePass: Promise<Buffer> | null = null;
  const startRenamePass = () => {
    // Only the pairs found are printed: the rest of the listing is the patch pass's already.
    renamePass = git.outputBytes([...DIFF_INDEX, '-M', '--diff-filter=R', from], { env });
    renamePass.catch(() => undefined); // awaited below, after the patch
  };
  // Parsed once, as soon as it is complete, and reused for the patch.
  let rawEntries: RawEntry[] | undefined;
  const listed = (raw: string) => {
    rawEntries = parseRawDiff(raw);
    options.onListed?.(rawEntries);
    if (mayHoldRenames(rawEntries)) startRenamePass();
  };
  // The patch is parsed as it arrives, while git still writes the rest.
  const patch = new PatchStream();
  await git.outputBytes([...DIFF_INDEX, ...PATCH, '--no-renames', from], {
    env,
    streamOnly: true,
    onStdout: (chunk) => {
      if (watcher.complete) patch.push(chunk.toString('latin1'));
      else if (watcher.push(chunk)) {
        listed(watcher.raw());
        patch.push(watcher.patchStart());
      }
    },
  });
  // No separator: no change at all (an empty output), or records without a patch.
  if (!watcher.complete) listed(watcher.all());
  const paths = describeSections(rawEntries ?? [], patch.end());
  if (renamePass === null) return { entries: paths, paths };

  let renamesListed = false;
  (renamePass as Promise<Buffer>).then(
    () => {
      renamesListed = true;
    },
    () => undefined,
  );
  // A settled pass runs its callback above before this line; otherwise git still works on the renames.
  await Promise.resolve();
  if (!renamesListed) options.whileGitWorks?.();
  const renamedPaths = new Set<string>();
  for (const entry of parseRawDiff((await (renamePass as Promise<Buffer>)).toString('utf8'))) {
    if (entry.status === 'R') renamedPaths.add(entry.srcPath).add(entry.path);
  }
  if (renamedPaths.size === 0) return { entries: paths, paths };

  const renameOutputWithPatch = await git.outputBytes([...DIFF_INDEX, ...PATCH, '-M', from, '--', ...renamedPaths], {
    env: { ...env, GIT_LITERAL_PATHSPECS: '1' },
  });
  const pairs = describeDiff(renameOutputWithPatch);
  const replaced = new Set(
    pairs.flatMap((entry) => (entry.oldPath !== undefined ? [entry.path, entry.oldPath] : [entry.path])),
  );
  return { entries: [...paths.filter((entry) => !replaced.has(entry.path)), ...pairs], paths };
}

/**
 * Every changed path between the base and the temporary index, renames not paired and without patches: the
 * fingerprint's input (`ListedChanges.paths`), for a fraction of the diff's cost.
 */
export async function listChangedPaths(
  git: GitRunner,
  options: Pick<ListChangesOptions, 'from' | 'env'>,
): Promise<DescribedEntry[]> {
  const raw = await git.outputBytes([...DIFF_INDEX, '--no-renames', options.from], { env: options.env });
  return describeRaw(parseRawDiff(raw.toString('utf8')));
}

/** Renames need a deleted file and an added one (submodules are never paired). */
function mayHoldRenames(entries: readonly RawEntry[]): boolean {
  let deleted = false;
  let added = false;
  for (const entry of entries) {
    if ((entry.srcMode & MODE_TYPE_MASK) === MODE_GITLINK || (entry.dstMode & MODE_TYPE_MASK) === MODE_GITLINK)
      continue;
    if (entry.status === 'D') deleted = true;
    if (entry.status === 'A') added = true;
    if (deleted && added) return true;
  }
  return false;
}

/** Collects stdout until the NUL pair that ends the raw listing of `--raw -z -p`. */
class RawListingWatcher {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private end = -1;

  get complete(): boolean {
    return this.end !== -1;
  }

  /** True exactly once: on the chunk that completes the raw listing. Looks at each byte once. */
  push(chunk: Buffer): boolean {
    if (this.complete || chunk.length === 0) return false;
    const previous = this.chunks[this.chunks.length - 1];
    // The pair may straddle two chunks.
    const straddles = previous !== undefined && previous[previous.length - 1] === 0 && chunk[0] === 0;
    const inside = straddles ? -1 : chunk.indexOf('\0\0');
    this.chunks.push(chunk);
    if (straddles) this.end = this.size;
    else if (inside !== -1) this.end = this.size + inside + 1;
    this.size += chunk.length;
    return this.complete;
  }

  raw(): string {
    return Buffer.concat(this.chunks).toString('utf8', 0, this.end);
  }

  /** The patch text that came with the raw listing's last chunk (after the separator's second NUL), as latin1. */
  patchStart(): string {
    const last = this.chunks[this.chunks.length - 1]!;
    const start = this.end + 1 - (this.size - last.length);
    return last.toString('latin1', start);
  }

  /** Everything pushed, when no separator came. */
  all(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
