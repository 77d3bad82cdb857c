import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Git's object id of a blob with these bytes (`git hash-object --no-filters`), in the repository's object format. */
export function blobIdOf(bytes: Uint8Array, objectFormat: string): string {
  return createHash(hashName(objectFormat)).update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

export interface FileDigests {
  /** The blob id of the bytes read. */
  blobId: string;
  /** SHA-256 of the bytes read (what a Git LFS pointer names). */
  sha256: string;
  size: number;
}

/**
 * Both digests of a file, streamed (LFS files can be large). Null when the file cannot be read or its size changed
 * while it was read: the caller then treats it as not matching anything.
 */
export async function digestFile(absolute: string, size: number, objectFormat: string): Promise<FileDigests | null> {
  const blob = createHash(hashName(objectFormat)).update(`blob ${size}\0`);
  const sha256 = createHash('sha256');
  let read = 0;
  try {
    for await (const chunk of createReadStream(absolute)) {
      const bytes = chunk as Buffer;
      read += bytes.length;
      blob.update(bytes);
      sha256.update(bytes);
    }
  } catch {
    return null;
  }
  if (read !== size) return null;
  return { blobId: blob.digest('hex'), sha256: sha256.digest('hex'), size };
}

function hashName(objectFormat: string): 'sha1' | 'sha256' {
  if (objectFormat === 'sha1' || objectFormat === 'sha256') return objectFormat;
  throw new Error(`unsupported git object format ${JSON.stringify(objectFormat)}`);
}
