import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { writeFileAtomic } from '../../../core/state/atomic-write.js';

/**
 * Advisory answers kept for a while (`advisories.cache.ttl`) under `.tollgate/cache/advisories/`, one file per
 * request key, so a rerun on the same lockfile does not ask again. Only successful answers are kept; a missing,
 * expired or unreadable entry is simply a miss.
 */
export interface ResponseCache {
  get<Schema extends z.ZodType>(key: string, schema: Schema): Promise<z.output<Schema> | undefined>;
  set(key: string, value: unknown): Promise<void>;
}

export function createResponseCache(options: { dir: string; ttlMs: number; now?: () => number }): ResponseCache {
  const now = options.now ?? Date.now;
  const fileOf = (key: string) =>
    join(options.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.json`);
  let made = false;
  return {
    async get(key, schema) {
      const text = await readFile(fileOf(key), 'utf8').catch(() => null);
      if (text === null) return undefined;
      try {
        const entry = JSON.parse(text) as { key?: string; storedAt?: number; value?: unknown };
        if (entry.key !== key || typeof entry.storedAt !== 'number' || now() - entry.storedAt > options.ttlMs)
          return undefined;
        const parsed = schema.safeParse(entry.value);
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, value) {
      if (!made) {
        await mkdir(options.dir, { recursive: true, mode: 0o700 });
        made = true;
      }
      await writeFileAtomic(fileOf(key), JSON.stringify({ key, storedAt: now(), value }), {
        label: '.tollgate/cache/advisories',
      });
    },
  };
}
