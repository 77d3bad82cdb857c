import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { useIsolatedRepos } from '../../../test/support/isolated-repos.js';
import { digestFile } from './blob-id.js';
import { DIGEST_CACHE_FILE, DigestCache } from './digest-cache.js';

/** Digests of filtered files kept between runs, while the file's stat data (ctime included) holds. */
const { repoWith } = useIsolatedRepos();

/** A cache whose clock runs an hour ahead (every file is old enough to keep) and that counts its reads. */
async function openCounting(root: string, now = () => Date.now() + 3_600_000) {
  const reads: string[] = [];
  const cache = await DigestCache.open(root, {
    now,
    digest: (absolute, size, format) => {
      reads.push(absolute);
      return digestFile(absolute, size, format);
    },
  });
  return { cache, reads };
}

async function stateRepo(content: string) {
  const repo = await repoWith({ 'big.bin': content });
  await mkdir(join(repo.root, '.tollgate'), { recursive: true });
  return repo;
}

describe('DigestCache', () => {
  test('a file whose stat data did not change is not read again', async () => {
    const repo = await stateRepo('payload\n');
    const first = await openCounting(repo.root);
    const digests = await first.cache.digestOf('big.bin', 'sha1');
    await first.cache.save();
    const second = await openCounting(repo.root);
    expect(await second.cache.digestOf('big.bin', 'sha1')).toEqual(digests);
    expect(first.reads).toHaveLength(1);
    expect(second.reads).toEqual([]);
  });

  test('an edit is read again, even one that restores the size and the mtime', async () => {
    const repo = await stateRepo('payload\n');
    const first = await openCounting(repo.root);
    const before = await first.cache.digestOf('big.bin', 'sha1');
    await first.cache.save();
    const mtime = new Date(Date.now() - 60_000);
    await utimes(join(repo.root, 'big.bin'), mtime, mtime);
    const settled = await openCounting(repo.root);
    await settled.cache.digestOf('big.bin', 'sha1');
    await settled.cache.save();
    // Same size, same mtime: only the ctime (set by the kernel on every write) tells.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(join(repo.root, 'big.bin'), 'secret!\n');
    await utimes(join(repo.root, 'big.bin'), mtime, mtime);
    const second = await openCounting(repo.root);
    const after = await second.cache.digestOf('big.bin', 'sha1');
    expect(second.reads).toHaveLength(1);
    expect(after?.blobId).not.toBe(before?.blobId);
  });

  test('a file changed just before it was read is not kept (racy clean)', async () => {
    const repo = await stateRepo('payload\n');
    const first = await openCounting(repo.root, Date.now);
    await first.cache.digestOf('big.bin', 'sha1');
    await first.cache.save();
    const second = await openCounting(repo.root);
    await second.cache.digestOf('big.bin', 'sha1');
    expect(second.reads).toHaveLength(1);
  });

  test('a cache edited by hand is not trusted', async () => {
    const repo = await stateRepo('payload\n');
    const first = await openCounting(repo.root);
    await first.cache.digestOf('big.bin', 'sha1');
    await first.cache.save();
    const path = join(repo.root, DIGEST_CACHE_FILE);
    const forged = (await readFile(path, 'utf8')).replace(/"sha256": "[0-9a-f]+"/, `"sha256": "${'0'.repeat(64)}"`);
    await writeFile(path, forged);
    const second = await openCounting(repo.root);
    const digests = await second.cache.digestOf('big.bin', 'sha1');
    expect(second.reads).toHaveLength(1);
    expect(digests?.sha256).not.toBe('0'.repeat(64));
  });

  test('without a state folder nothing is written', async () => {
    const repo = await repoWith({ 'big.bin': 'payload\n' });
    const first = await openCounting(repo.root);
    await first.cache.digestOf('big.bin', 'sha1');
    await first.cache.save();
    await expect(readFile(join(repo.root, DIGEST_CACHE_FILE))).rejects.toThrow();
  });
});
