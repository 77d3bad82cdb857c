import { DEV_NULL } from '../os-lazy.js';

/**
 * Settings under which git reports what is on disk, whatever the repository's config says: no file system monitor
 * (a hook that answers "nothing changed" would hide edits), no untracked cache (its directory-mtime shortcuts can
 * miss a new file), no split or sparse index written beside the user's, every stat field compared (a reset mtime on a
 * same-size edit is still seen through ctime), stat data trusted for no file wholesale (`core.ignoreStat`), and files
 * outside a sparse-checkout cone that are on disk staged like any other (`git add` skips them otherwise).
 *
 * And the object view the repository cannot choose: no replace refs (`core.useReplaceRefs=true` in the repository's
 * config would switch them back on over `GIT_NO_REPLACE_OBJECTS`), git's own size above which a file is binary to
 * diff (a tiny `core.bigFileThreshold` would show every file as "binary", with no added lines to scan), and no line
 * ending conversion or refusal while staging (`core.autocrlf`, `core.safecrlf`): the snapshot holds the bytes on disk.
 */
export const SNAPSHOT_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.splitIndex', 'false'],
  ['core.trustctime', 'true'],
  ['core.checkStat', 'default'],
  ['core.ignoreStat', 'false'],
  ['index.sparse', 'false'],
  ['core.sparseCheckout', 'false'],
  ['core.useReplaceRefs', 'false'],
  ['core.bigFileThreshold', '512m'],
  ['core.autocrlf', 'false'],
  ['core.safecrlf', 'false'],
  // The empty graft file below is still a graft file: without this, git prints its deprecation hint on every call.
  ['advice.graftFileDeprecated', 'false'],
];

/**
 * The environment of every git process tollgate starts (`runProcess('git', …)`, the change set's runner, the fast
 * paths' tree stamps): `env` with the object view fixed. Replace refs off (`GIT_NO_REPLACE_OBJECTS`), grafts off
 * (`info/grafts` is still honoured by git 2.39, and `GIT_NO_REPLACE_OBJECTS` does not cover it; an empty graft file
 * does), read-only commands never refresh the user's index (`GIT_OPTIONAL_LOCKS=0`), and the settings above forced
 * over every config file. The caller's own `GIT_DIR`, `GIT_INDEX_FILE` and the like are kept: the person or git hook
 * that started tollgate chose them, the change cannot (docs/gate.md, "What the change controls").
 */
export function fixedGitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (isFixedGitEnv(env)) return env;
  return {
    ...env,
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_GRAFT_FILE: DEV_NULL,
    GIT_OPTIONAL_LOCKS: '0',
    ...forcedConfigEnv(env, SNAPSHOT_GIT_CONFIG),
  };
}

/** True when `env` already ends with what `fixedGitEnv` adds (a runner's environment reaching `runProcess`). */
function isFixedGitEnv(env: NodeJS.ProcessEnv): boolean {
  if (env.GIT_NO_REPLACE_OBJECTS !== '1' || env.GIT_GRAFT_FILE !== DEV_NULL || env.GIT_OPTIONAL_LOCKS !== '0')
    return false;
  const count = Number(env.GIT_CONFIG_COUNT);
  const start = count - SNAPSHOT_GIT_CONFIG.length;
  if (!Number.isInteger(start) || start < 0) return false;
  return SNAPSHOT_GIT_CONFIG.every(
    ([key, value], offset) =>
      env[`GIT_CONFIG_KEY_${start + offset}`] === key && env[`GIT_CONFIG_VALUE_${start + offset}`] === value,
  );
}

/**
 * `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` entries (git 2.31+) that come after any the caller's environment already
 * holds; they take precedence over every config file, like `-c`.
 */
export function forcedConfigEnv(
  env: NodeJS.ProcessEnv,
  settings: ReadonlyArray<readonly [string, string]>,
): Record<string, string> {
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  const start = Number.isInteger(existing) && existing > 0 ? existing : 0;
  const forced: Record<string, string> = { GIT_CONFIG_COUNT: String(start + settings.length) };
  settings.forEach(([key, value], offset) => {
    forced[`GIT_CONFIG_KEY_${start + offset}`] = key;
    forced[`GIT_CONFIG_VALUE_${start + offset}`] = value;
  });
  return forced;
}
