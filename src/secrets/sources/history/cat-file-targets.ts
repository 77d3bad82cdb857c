import { runProcess } from '../../../core/process.js';
import type { ScanTarget } from '../../scan-targets.js';
import { checkGitResult } from '../git-result.js';
import { asGitResult, blockWritingGit } from './block-writes.js';
import { type CatFileObject, CatFileStream } from './cat-file-stream.js';
import { FlowQueue } from './flow-queue.js';

/**
 * Objects read from one `git cat-file --batch`, each turned into a scan target as it arrives, handed on in order while
 * git waits for the scanner (reading pauses while enough is queued). Replacement objects (`refs/replace/`) are not
 * what a push sends: the stored object is read.
 */
/**
 * Objects above this are not kept (listed as too large instead): a history's binary file, both its versions and the
 * decoded text held at once, or a commit message (git itself makes none this size; a crafted object could).
 */
export const OBJECT_MAX_BYTES = 50_000_000;

export interface CatFileReads {
  /** Object names, one per object asked for (ids, or `rev:path`). */
  readonly names: readonly string[];
  /** The target for object `index` of `names`, or null for none. */
  onObject(object: CatFileObject, index: number): ScanTarget | null;
}

export interface CatFileTargetOptions extends CatFileReads {
  repoRoot: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Objects above this many bytes are not kept (`content: null`). */
  maxBytes: number;
  /** What a failure names, e.g. `--history: reading commit messages`. */
  what: string;
}

/**
 * Several lists of objects as one, in order, for one `git cat-file` process: each process costs its start and the
 * pipe's reads on both sides.
 */
export function joinedReads(lists: readonly CatFileReads[]): CatFileReads {
  const owners: Array<{ reads: CatFileReads; from: number }> = [];
  const names: string[] = [];
  for (const reads of lists) {
    owners.push({ reads, from: names.length });
    for (const name of reads.names) names.push(name);
  }
  let owner = 0;
  return {
    names,
    // Objects arrive in the order asked for: the owner only moves forward.
    onObject: (object, index) => {
      while (owner + 1 < owners.length && index >= owners[owner + 1]!.from) owner++;
      const { reads, from } = owners[owner]!;
      return reads.onObject(object, index - from);
    },
  };
}

/** A batch is handed on once it holds this many bytes or targets. */
const BATCH_BYTES = 1024 * 1024;
const BATCH_TARGETS = 1000;

export async function* catFileTargets(options: CatFileTargetOptions): AsyncGenerator<ScanTarget[]> {
  if (options.names.length === 0) return;
  const queue = new FlowQueue<ScanTarget[]>();
  let at = 0;
  // Small objects (commit messages) go in batches: one scan call per object cost more than scanning them.
  let batch: ScanTarget[] = [];
  let bytes = 0;
  const flush = () => {
    if (batch.length > 0) queue.push(batch, bytes);
    batch = [];
    bytes = 0;
  };
  const stream = new CatFileStream(options.maxBytes, (object) => {
    const target = options.onObject(object, at++);
    if (!target) return;
    batch.push(target);
    bytes += object.size;
    if (bytes >= BATCH_BYTES || batch.length >= BATCH_TARGETS) flush();
  });
  let done = false;
  let failure: unknown = null;
  const finish = (error: unknown) => {
    flush();
    failure ??= error;
    done = true;
    queue.poke();
  };
  // A name with a line end cannot be asked for: it asks for nothing, which git answers as missing.
  const input = options.names.map((name) => (/[\n\r]/.test(name) ? '' : name));
  // `--buffer`: every name is on stdin before git answers, so its output need not be flushed after each object (one
  // small write, and one read here, per commit message otherwise).
  const git = blockWritingGit(['--no-replace-objects', 'cat-file', '--batch', '--buffer'], options.env ?? process.env);
  runProcess(git.command, git.args, {
    cwd: options.repoRoot,
    env: git.env,
    input: `${input.join('\n')}\n`,
    timeoutMs: 3_600_000,
    ...(options.signal ? { signal: options.signal } : {}),
    maxOutputBytes: 64 * 1024,
    outputControl: queue.control,
    onOutput: (name, chunk) => {
      if (name === 'stdout') stream.push(chunk);
    },
  }).then((result) => {
    try {
      checkGitResult(asGitResult(git, result), options.what);
      finish(null);
    } catch (error) {
      finish(error);
    }
  }, finish);
  try {
    yield* queue.drain(() => ({ done, failure }));
  } finally {
    queue.resumeAll();
  }
}
