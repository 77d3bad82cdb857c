import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/state/atomic-write.js';
import { withStateLock } from '../../core/state/lock.js';

/** A verdict is trusted this long; a revoked token stays revoked, but a live one may be revoked any minute. */
export const VERIFY_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

const cacheSchema = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), z.object({ status: z.enum(['live', 'invalid']), at: z.number() })),
});
type CacheFile = z.infer<typeof cacheSchema>;

/** The cache key: SHA-256 of rule id and value. The value itself is never stored. */
export function verifyCacheKey(ruleId: string, secret: string): string {
  return createHash('sha256').update(ruleId).update('\0').update(secret).digest('hex');
}

/** `.tollgate/verify-cache.json`: definite answers (live/invalid) only, so an `unknown` is asked again next run. */
export class VerifyCache {
  private constructor(
    private readonly path: string,
    private readonly file: CacheFile,
    private readonly now: () => number,
  ) {}

  static async open(repoRoot: string, now: () => number = Date.now): Promise<VerifyCache> {
    const path = join(repoRoot, '.tollgate', 'verify-cache.json');
    return new VerifyCache(path, await readCacheFile(path), now);
  }

  get(key: string): 'live' | 'invalid' | undefined {
    const entry = this.file.entries[key];
    if (!entry || this.now() - entry.at > VERIFY_CACHE_TTL_MS) return undefined;
    return entry.status;
  }

  set(key: string, status: 'live' | 'invalid'): void {
    this.file.entries[key] = { status, at: this.now() };
  }

  /** Merges with what another run may have written meanwhile, under the state lock, drops expired entries. */
  async save(repoRoot: string): Promise<void> {
    await withStateLock(repoRoot, async () => {
      const onDisk = await readCacheFile(this.path);
      const entries = { ...onDisk.entries, ...this.file.entries };
      const cutoff = this.now() - VERIFY_CACHE_TTL_MS;
      for (const [key, entry] of Object.entries(entries)) if (entry.at < cutoff) delete entries[key];
      const file: CacheFile = { version: 1, entries };
      await writeFileAtomic(this.path, `${JSON.stringify(file)}\n`, { label: '.tollgate/verify-cache.json' });
    });
  }
}

async function readCacheFile(path: string): Promise<CacheFile> {
  try {
    return cacheSchema.parse(JSON.parse(await readFile(path, 'utf8')));
  } catch {
    // Missing or unreadable: start empty; it is only a cache.
    return { version: 1, entries: {} };
  }
}
