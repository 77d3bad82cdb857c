import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INDEX_HASH_BYTES, nameOf, walkIndexEntries } from '../../src/core/change-set/index-entries.js';

/**
 * An edit git's own stat check cannot see, made deterministically: the file gets new bytes of the same size and its
 * mtime put back, and its index entry is given the file's new ctime second with other nanoseconds, as if git had
 * recorded it earlier in that same second (git compares times to the second: src/core/change-set/
 * second-blind-entries.ts). An agent gets the same by writing within the second git last recorded the file; here no
 * timing decides it.
 */
export function hideEditFromGit(root: string, path: string, bytes: string): void {
  const file = join(root, path);
  const before = lstatSync(file, { bigint: true });
  if (Buffer.byteLength(bytes) !== Number(before.size)) throw new Error(`hideEditFromGit: ${path} must keep its size`);
  writeFileSync(file, bytes);
  utimesSync(file, before.atime, before.mtime);
  recordOtherNanoseconds(root, path);
}

/**
 * Gives `path`'s index entry its file's ctime and mtime as they are now, but with the ctime's nanoseconds moved half a
 * second (in the same second): what git records when it saw the file earlier in the second of its last change. The
 * index keeps its form; only its trailing checksum is computed again (a SHA-1 repository's).
 */
export function recordOtherNanoseconds(root: string, path: string): void {
  const now = lstatSync(join(root, path), { bigint: true });
  const seconds = (ns: bigint) => Number(ns / 1_000_000_000n) >>> 0;
  const nanoseconds = (ns: bigint) => Number(ns % 1_000_000_000n);
  const indexPath = join(root, '.git', 'index');
  const index = readFileSync(indexPath);
  const hashBytes = INDEX_HASH_BYTES.sha1!;
  let found = false;
  walkIndexEntries(index, hashBytes, (entry) => {
    if (nameOf(index, entry).toString('utf8') !== path) return true;
    index.writeUInt32BE(seconds(now.ctimeNs), entry.at);
    index.writeUInt32BE((nanoseconds(now.ctimeNs) + 500_000_000) % 1_000_000_000, entry.at + 4);
    index.writeUInt32BE(seconds(now.mtimeNs), entry.at + 8);
    index.writeUInt32BE(nanoseconds(now.mtimeNs), entry.at + 12);
    found = true;
    return false;
  });
  if (!found) throw new Error(`recordOtherNanoseconds: ${path} is not in the index`);
  const end = index.length - hashBytes;
  createHash('sha1').update(index.subarray(0, end)).digest().copy(index, end);
  writeFileSync(indexPath, index);
}
