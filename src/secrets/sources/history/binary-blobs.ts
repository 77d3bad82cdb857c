import type { LineRange } from '../../../core/change-set/types.js';
import type { ScanTarget } from '../../scan-targets.js';
import { decodeText } from '../../text-decoding.js';
import { toRanges } from '../parse-patch.js';
import { type CatFileReads, OBJECT_MAX_BYTES } from './cat-file-targets.js';
import type { BinaryChange } from './patch-stream.js';

/**
 * Files read whole rather than from the patch (see `BinaryChange`: what git calls binary, and text whose added lines
 * hold a NUL), by blob id from one `git cat-file --batch`, each parent's version before the new one. They are decoded
 * as the tree's files are (`scanContent`): text (UTF-16, UTF-32, Latin-1) on the lines no parent had, so a secret is
 * reported where it arrived and not again at each later change; content that is no text encoding for its printable
 * runs, on the byte lines (split at 0x0A) no parent had. A blob git cannot show is listed as unreadable, never passed
 * over. Read in the `git cat-file` that reads the commit messages (`history-source.ts`).
 */
export function binaryReads(changes: readonly BinaryChange[]): CatFileReads {
  // Each change's parent versions right before its own, so only one change's blobs are held at a time.
  const requests: Array<{ change: BinaryChange; parent: boolean; name: string }> = [];
  for (const change of changes) {
    for (const blob of change.parentBlobs) requests.push({ change, parent: true, name: blob });
    requests.push({ change, parent: false, name: change.blob ?? `${change.commit}:${change.path}` });
  }
  let parents: Buffer[] = [];
  return {
    names: requests.map((request) => request.name),
    onObject: (object, index) => {
      const request = requests[index]!;
      if (request.parent) {
        if (object.content) parents.push(object.content);
        return null;
      }
      const target = blobTarget(request.change, object, parents);
      parents = [];
      return target;
    },
  };
}

function blobTarget(
  change: BinaryChange,
  object: { size: number; content: Buffer | null; missing: boolean },
  parents: readonly Buffer[],
): ScanTarget | null {
  const base = { path: change.path, ...(change.commit ? { commit: change.commit } : {}) };
  if (object.missing)
    return { ...base, read: async () => null, skip: { reason: 'unreadable', detail: 'blob missing from history' } };
  if (object.content === null)
    return {
      ...base,
      read: async () => null,
      skip: {
        reason: 'too_large',
        detail: `${(object.size / 1e6).toFixed(1)} MB binary-to-git blob over the ${OBJECT_MAX_BYTES / 1e6} MB read from history`,
      },
    };
  const content = object.content;
  const decoded = decodeText(content);
  const added =
    decoded === null
      ? addedLines(byteLines(content), parents.map(byteLines))
      : addedLines(
          decoded.text.split('\n'),
          parents.map((parent) => decodeText(parent)?.text.split('\n') ?? []),
        );
  if (added !== null && added.length === 0) return null;
  const text = decoded?.text;
  const lines = added ? { onlyLines: added, newLines: added } : {};
  // Text is handed on decoded; other content as its bytes, which the scan reads for printable runs (and lists).
  return { ...base, read: async () => text ?? content, ...lines };
}

/** The lines of bytes between 0x0A bytes, each as a one-byte string (the lines `printableRuns` counts). */
function byteLines(bytes: Buffer): string[] {
  return bytes.toString('latin1').split('\n');
}

/** The lines (1-based) no parent has anywhere (null: every line, the file is new). */
function addedLines(lines: readonly string[], parents: ReadonlyArray<readonly string[]>): LineRange[] | null {
  if (parents.length === 0) return null;
  const had = new Set(parents.flat());
  const added: number[] = [];
  for (let i = 0; i < lines.length; i++) if (!had.has(lines[i]!)) added.push(i + 1);
  return toRanges(added);
}
