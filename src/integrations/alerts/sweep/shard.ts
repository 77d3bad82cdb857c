/**
 * Deterministic partition of secret-scanning alerts over N machines. An alert's shard depends only on its repository
 * and number, so alerts appearing later never move existing ones and no two shards ever take the same alert.
 */
import { createHash } from 'node:crypto';
import { TollgateError } from '../../../core/errors.js';

export interface Shard {
  /** 1-based index. */
  readonly index: number;
  readonly count: number;
}

/** Parses `--shard I/N` (1 ≤ I ≤ N). */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text.trim());
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (!match || count < 1 || index < 1 || index > count) {
    throw new TollgateError('usage', `--shard: expected I/N with 1 ≤ I ≤ N (e.g. 2/4), got "${text}"`);
  }
  return { index, count };
}

/** The 1-based shard that owns alert `number` of `repo` (OWNER/NAME, compared case-insensitively). */
export function shardOfAlert(repo: string, number: number, count: number): number {
  const digest = createHash('sha256').update(`${repo.toLowerCase()}#${number}`).digest();
  return (digest.readUInt32BE(0) % count) + 1;
}

export function inShard(repo: string, number: number, shard: Shard): boolean {
  return shardOfAlert(repo, number, shard.count) === shard.index;
}
