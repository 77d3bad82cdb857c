import { createChangeSet } from '../change-set/index.js';
import type { RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';

/** The change set as every run builds it: `--base` over config `base`, with the config's ignore patterns and size cap. */
export function changeSetForRun(repoRoot: string, config: TollgateConfig, base?: string): Promise<RepoChangeSet> {
  return createChangeSet({
    cwd: repoRoot,
    ...(base ? { base } : {}),
    ...(config.base ? { configBase: config.base } : {}),
    ignore: config.ignore,
    maxFileSize: config.validation.maxFileSize,
  });
}
