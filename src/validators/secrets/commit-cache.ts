import { join } from 'node:path';
import { z } from 'zod';
import { SEVERITIES } from '../../core/finding.js';
import { readSignedJsonFile, writeSignedJsonFile } from '../../core/state/signed-json-file.js';
import { ensureTollgateDir, TOLLGATE_DIR, tollgatePaths } from '../../core/state/tollgate-dir.js';

/**
 * `.tollgate/commit-scans.json`: what the secret scan found in each commit since the base, by commit id, under one
 * key (the rules, the secrets options, the baseline and the imported suppressions; see history-scan.ts). A commit's
 * content never changes, so under the same key a commit scanned once is never scanned again: a repeated run and the
 * stop hook's run cost one `git rev-list`. Only masked values are kept. A different key starts an empty cache.
 */
const CACHE_FILE = 'commit-scans.json';
/** Raised when a commit's scan covers more (binary blobs, commit messages): what an older scan vouched for is redone. */
const CACHE_VERSION = 2;
/** Enough for long branches; the oldest entries go first. */
const MAX_COMMITS = 50_000;

const cachedSecretSchema = z.object({
  ruleId: z.string(),
  title: z.string(),
  severity: z.enum(SEVERITIES),
  path: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  masked: z.string(),
  fingerprint: z.string(),
  fixture: z.literal(true).optional(),
});
export type CachedSecret = z.output<typeof cachedSecretSchema>;

const cacheSchema = z.object({
  version: z.literal(CACHE_VERSION),
  key: z.string(),
  commits: z.record(z.string(), z.array(cachedSecretSchema)),
});

function cachePath(repoRoot: string): string {
  return join(tollgatePaths(repoRoot).root, CACHE_FILE);
}

/** The cached scans under `key`; empty when there are none, the key differs or the file is unreadable. */
export async function readCommitScans(repoRoot: string, key: string): Promise<Map<string, CachedSecret[]>> {
  // Signed: a forged entry saying a commit holds no secret must not skip its scan.
  const read = await readSignedJsonFile(cachePath(repoRoot), cacheSchema, 'commit-scans').catch(() => null);
  if (read?.kind !== 'ok' || read.value.key !== key) return new Map();
  return new Map(Object.entries(read.value.commits));
}

/** Writes `scans` (every commit known under `key`, oldest first) atomically. */
export async function writeCommitScans(
  repoRoot: string,
  key: string,
  scans: ReadonlyMap<string, readonly CachedSecret[]>,
): Promise<void> {
  ensureTollgateDir(repoRoot);
  const entries = [...scans.entries()].slice(-MAX_COMMITS);
  const file = { version: CACHE_VERSION, key, commits: Object.fromEntries(entries) };
  await writeSignedJsonFile(cachePath(repoRoot), 'commit-scans', file, {
    label: `${TOLLGATE_DIR}/${CACHE_FILE}`,
    indent: 0,
  });
}

export function toCachedSecret(secret: CachedSecret): CachedSecret {
  const { ruleId, title, severity, path, line, column, masked, fingerprint, fixture } = secret;
  return { ruleId, title, severity, path, line, column, masked, fingerprint, ...(fixture ? { fixture } : {}) };
}
