import {
  type ChangeSetSettings,
  type ChangeSetStart,
  createChangeSet,
  fingerprintTree,
  type TreeFingerprint,
} from '../change-set/index.js';
import type { RepoChangeSet } from '../change-set/types.js';
import type { TollgateConfig } from '../config/schema.js';
import { readTrustedCommits } from '../state/history-store.js';

/**
 * The change set as every run builds it: `--base` over config `base`, with the config's ignore patterns and size cap,
 * and the base held to the commits tollgate trusts (src/core/change-set/pin-base.ts). `started`: a snapshot the caller
 * began before it read the config (`startChangeSet`), finished here with these settings.
 */
export async function changeSetForRun(
  repoRoot: string,
  config: TollgateConfig,
  base?: string,
  started?: ChangeSetStart,
  whileGitWorks?: () => void,
): Promise<RepoChangeSet> {
  let trustedCommits: string[];
  try {
    trustedCommits = await readTrustedCommits(repoRoot);
  } catch (error) {
    started?.cancel();
    throw error;
  }
  const settings = { ...settingsForRun(config, base, trustedCommits), ...(whileGitWorks ? { whileGitWorks } : {}) };
  return started ? started.finish(settings) : createChangeSet({ cwd: repoRoot, ...settings });
}

/**
 * The fingerprint and HEAD `changeSetForRun` would give now (same base, ignore patterns and pinning), without the
 * patch or file reads: what the check after a run compares. `since`: the run's own change set, whose snapshot's index
 * the new one starts from (git then reads only what changed since), and whose base it is measured against (nothing to
 * resolve or pin again, so the signed history is not read).
 */
export async function fingerprintForRun(
  repoRoot: string,
  config: TollgateConfig,
  base?: string,
  since?: RepoChangeSet,
): Promise<TreeFingerprint> {
  const trustedCommits = since ? [] : await readTrustedCommits(repoRoot);
  return fingerprintTree({ cwd: repoRoot, ...settingsForRun(config, base, trustedCommits) }, since);
}

function settingsForRun(config: TollgateConfig, base: string | undefined, trustedCommits: string[]): ChangeSetSettings {
  return {
    ...(base ? { base } : {}),
    ...(config.base ? { configBase: config.base } : {}),
    ignore: config.ignore,
    maxFileSize: config.validation.maxFileSize,
    trustedCommits,
  };
}
