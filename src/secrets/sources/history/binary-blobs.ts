import type { LineRange } from '../../../core/change-set/types.js';
import { runProcess } from '../../../core/process.js';
import type { ScanTarget } from '../../scan-targets.js';
import { decodeText } from '../../text-decoding.js';
import { checkGitResult } from '../git-result.js';
import { toRanges } from '../parse-patch.js';
import { CatFileStream } from './cat-file-stream.js';
import { FlowQueue } from './flow-queue.js';
import type { BinaryChange } from './patch-stream.js';

/**
 * Files git's diff called binary (a NUL in the first 8000 bytes), read whole from one `git cat-file --batch`, new
 * version after old. Text to `decodeText` (UTF-16 mostly) is scanned on the lines the old version did not have, so a
 * secret is reported where it arrived, not again at each later change; real binary content is passed over, as the
 * patch passes over it.
 */
export interface BinaryBlobOptions {
  repoRoot: string;
  env?: NodeJS.ProcessEnv;
  changes: readonly BinaryChange[];
  signal?: AbortSignal;
}

/** Blobs above this are listed as too large instead of read (both versions and the decoded text are held at once). */
export const BINARY_BLOB_MAX_BYTES = 50_000_000;

export async function* binaryTargets(options: BinaryBlobOptions): AsyncGenerator<ScanTarget[]> {
  const changes = options.changes.filter(
    (change) => change.commit !== null && !/[\n\r]/.test(change.path) && !/[\n\r]/.test(change.oldPath ?? ''),
  );
  if (changes.length === 0) return;
  // Each change's first-parent version (when it had one) right before its own, so only one pair is held at a time.
  const requests: Array<{ change: BinaryChange; old: boolean }> = [];
  for (const change of changes) {
    if (change.oldPath !== null) requests.push({ change, old: true });
    requests.push({ change, old: false });
  }
  const names = requests.map(({ change, old }) =>
    old ? `${change.commit}^:${change.oldPath}` : `${change.commit}:${change.path}`,
  );
  const queue = new FlowQueue<ScanTarget[]>();
  let at = 0;
  let old: Buffer | null = null;
  const stream = new CatFileStream(BINARY_BLOB_MAX_BYTES, (object) => {
    const request = requests[at++]!;
    if (request.old) {
      old = object.content;
      return;
    }
    const target = blobTarget(request.change, object, old);
    old = null;
    if (target) queue.push([target], object.size);
  });
  let done = false;
  let failure: unknown = null;
  runProcess('git', ['cat-file', '--batch'], {
    cwd: options.repoRoot,
    ...(options.env ? { env: options.env } : {}),
    input: `${names.join('\n')}\n`,
    timeoutMs: 3_600_000,
    ...(options.signal ? { signal: options.signal } : {}),
    maxOutputBytes: 64 * 1024,
    outputControl: queue.control,
    onOutput: (name, chunk) => {
      if (name === 'stdout') stream.push(chunk);
    },
  }).then(
    (result) => {
      try {
        checkGitResult(result, '--history: reading the files git calls binary');
      } catch (error) {
        failure = error;
      }
      done = true;
      queue.poke();
    },
    (error: unknown) => {
      failure = error;
      done = true;
      queue.poke();
    },
  );
  try {
    yield* queue.drain(() => ({ done, failure }));
  } finally {
    queue.resumeAll();
  }
}

function blobTarget(
  change: BinaryChange,
  object: { size: number; content: Buffer | null; missing: boolean },
  old: Buffer | null,
): ScanTarget | null {
  if (object.missing) return null;
  const base = { path: change.path, ...(change.commit ? { commit: change.commit } : {}) };
  if (object.content === null)
    return {
      ...base,
      read: async () => null,
      skip: {
        reason: 'too_large',
        detail: `${(object.size / 1e6).toFixed(1)} MB binary-to-git blob over the ${BINARY_BLOB_MAX_BYTES / 1e6} MB read from history`,
      },
    };
  const decoded = decodeText(object.content);
  if (decoded === null) return null;
  const text = decoded.text;
  const added = addedLines(text, old ? (decodeText(old)?.text ?? null) : null);
  if (added !== null && added.length === 0) return null;
  return { ...base, read: async () => text, ...(added ? { onlyLines: added, newLines: added } : {}) };
}

/** The lines of `text` that `before` does not have anywhere (null: every line, there was no text before). */
function addedLines(text: string, before: string | null): LineRange[] | null {
  if (before === null) return null;
  const had = new Set(before.split('\n'));
  const lines = text.split('\n');
  const added: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!had.has(lines[i]!)) added.push(i + 1);
  return toRanges(added);
}
