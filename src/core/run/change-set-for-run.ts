import { createChangeSet } from '../change-set/index.js';
import type { RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import { readTrustedCommits } from '../state/history-store.js';

/**
 * The change set as every run builds it: `--base` over config `base`, with the config's ignore patterns and size cap,
 * and the base held to the commits tollgate trusts (src/core/change-set/pin-base.ts).
 */
export async function changeSetForRun(repoRoot: string, config: TollgateConfig, base?: string): Promise<RepoChangeSet> {
  return createChangeSet({
    cwd: repoRoot,
    ...(base ? { base } : {}),
    ...(config.base ? { configBase: config.base } : {}),
    ignore: config.ignore,
    maxFileSize: config.validation.maxFileSize,
    trustedCommits: await readTrustedCommits(repoRoot),
  });
}
