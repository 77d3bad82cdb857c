import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { blobIdOf } from './blob-id.js';
import type { BlobReader } from './blob-reader.js';
import { ContentCache } from './content-cache.js';

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

/** An object store holding the given contents by blob id. */
function storeOf(...contents: string[]): BlobReader {
  const blobs = new Map(contents.map((text) => [blobIdOf(Buffer.from(text), 'sha1'), Buffer.from(text)]));
  return { read: async (id: string) => blobs.get(id) ?? null, size: async () => null } as unknown as BlobReader;
}

test('bytes read early are used when they are the snapshot blob, and not read from disk again', async () => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-content-cache-'));
  await writeFile(join(root, 'a.txt'), 'on disk now\n');
  const early = new Map([['a.txt', Buffer.from('snapshot\n')]]);
  const cache = new ContentCache({
    root,
    objectFormat: 'sha1',
    blobs: storeOf(),
    readEarly: (path) => early.get(path),
  });
  cache.register('a.txt', 'file', blobIdOf(Buffer.from('snapshot\n'), 'sha1'));
  expect(await cache.readText('a.txt')).toBe('snapshot\n');
});

test('bytes read early that are not the snapshot blob (edited after git staged it) give way to the blob', async () => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-content-cache-'));
  const cache = new ContentCache({
    root,
    objectFormat: 'sha1',
    blobs: storeOf('staged\n'),
    readEarly: () => Buffer.from('edited after git add\n'),
  });
  cache.register('a.txt', 'file', blobIdOf(Buffer.from('staged\n'), 'sha1'));
  expect(await cache.readText('a.txt')).toBe('staged\n');
});

test('a symlink never takes bytes read early: its content is its target text', async () => {
  root = await mkdtemp(join(tmpdir(), 'tollgate-content-cache-'));
  const asked: string[] = [];
  const cache = new ContentCache({
    root,
    objectFormat: 'sha1',
    blobs: storeOf('target.txt'),
    readEarly: (path) => {
      asked.push(path);
      return Buffer.from('target.txt');
    },
  });
  cache.register('link', 'symlink', blobIdOf(Buffer.from('target.txt'), 'sha1'));
  // Not on disk, and the early bytes are not asked for: the blob answers.
  expect(await cache.readText('link')).toBe('target.txt');
  expect(asked).toEqual([]);
});
