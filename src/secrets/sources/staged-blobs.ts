import { parseCatFileBatch } from '../../core/cat-file-batch.js';
import { type ProcessResult, runProcess } from '../../core/process.js';
import { checkGitResult } from './git-result.js';

/** Where git runs: the repository's root and the environment it gets (git-sources.ts's options are one). */
interface GitAt {
  readonly repoRoot: string;
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** The bytes git prints (a blob that may be binary, UTF-16 or UTF-32); `what` names it in git's error. */
async function gitBytes(options: GitAt, args: string[], what: string): Promise<Buffer> {
  const { result, stdout } = await gitStdout(options, args);
  checkGitResult(result, what);
  return stdout;
}

/** One git's whole stdout as bytes, and its result (whose capture keeps stderr for error messages). */
async function gitStdout(
  options: GitAt,
  args: string[],
  input?: string,
): Promise<{ result: ProcessResult; stdout: Buffer }> {
  const chunks: Buffer[] = [];
  const result = await runProcess('git', args, {
    cwd: options.repoRoot,
    ...(options.env ? { env: options.env } : {}),
    ...(input === undefined ? {} : { input }),
    timeoutMs: 600_000,
    // stdout is collected here, whole: the capture's own copy of it is capped.
    maxOutputBytes: 64 * 1024,
    onOutput: (stream, chunk) => {
      if (stream === 'stdout') chunks.push(chunk);
    },
  });
  return { result, stdout: Buffer.concat(chunks) };
}

/**
 * How many staged blobs one `git cat-file --batch` reads: the scan reads this many ahead (scan-targets.ts,
 * `READ_AHEAD`), so two batches hold no more than twice what the scan would have waiting anyway. One git per file
 * cost a commit of 21 files about 7 ms of CPU and 7 ms of wall a file beyond the first, most of it Node's own spawn
 * (docs/benchmarks.md, "`tollgate hook pre-commit`", session 30).
 */
const BLOB_BATCH = 16;

/**
 * The staged bytes of `paths[index]`, read with the files of its block of the list in one `git cat-file --batch`.
 * Each is named as `git cat-file blob` is given it (`indexName`), so both read the same blob; whatever the batch does
 * not answer with a blob (a path its one-line input cannot carry, a name git reports missing, a failed batch) is read
 * alone that way, and fails as it always did.
 */
export function stagedBlobs(options: GitAt, paths: readonly string[]): { read(index: number): Promise<Buffer> } {
  const fetched = new Map<number, Promise<Buffer | undefined>>();
  const alone = (path: string) => gitBytes(options, ['cat-file', 'blob', indexName(path)], `staged ${path}`);
  // Batches are fixed blocks of the list: the scan starts reading the files after the one it waits for (its read
  // ahead) before that one, so a batch from whichever index came first would leave the others to one of their own.
  const fetch = (at: number) => {
    const batch: number[] = [];
    const from = at - (at % BLOB_BATCH);
    for (let index = from; index < Math.min(paths.length, from + BLOB_BATCH); index++)
      if (!fetched.has(index) && batchable(paths[index]!)) batch.push(index);
    const answers = readBatch(
      options,
      batch.map((index) => indexName(paths[index]!)),
    );
    for (const [position, index] of batch.entries())
      fetched.set(
        index,
        answers.then((blobs) => blobs[position]),
      );
  };
  return {
    async read(index) {
      const path = paths[index]!;
      if (!batchable(path)) return alone(path);
      if (!fetched.has(index)) fetch(index);
      const pending = fetched.get(index)!;
      fetched.delete(index); // read once: a second read (redaction's) asks git again, as it did
      return (await pending) ?? alone(path);
    },
  };
}

/**
 * The staged blob's name for git: stage 0 named (`:0:<path>`), since `:<path>` reads a path that starts with a digit
 * and a colon as a stage (`:0:colon.txt` is stage 0 of `colon.txt`), and such a file was skipped as unreadable.
 */
function indexName(path: string): string {
  return `:0:${path}`;
}

/** `git cat-file --batch` takes one name a line, whole: a path with a line break or a CR at its end is read alone. */
function batchable(path: string): boolean {
  return !/[\n\r]/.test(path);
}

/** Each name's blob from one `git cat-file --batch`, undefined where it answered anything else (or failed). */
async function readBatch(options: GitAt, names: readonly string[]): Promise<Array<Buffer | undefined>> {
  const none = names.map(() => undefined);
  if (names.length === 0) return none;
  const { result, stdout } = await gitStdout(options, ['cat-file', '--batch'], `${names.join('\n')}\n`);
  if (result.exitCode !== 0) return none;
  const { objects, complete } = parseCatFileBatch(stdout, names.length);
  // `<name> missing`, `<name> ambiguous`, another type: read alone, which says why.
  return complete ? objects.map((object) => (object?.type === 'blob' ? object.bytes : undefined)) : none;
}
