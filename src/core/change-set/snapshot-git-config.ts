/**
 * Settings under which git reports what is on disk, whatever the repository's config says: no file system monitor
 * (a hook that answers "nothing changed" would hide edits), no untracked cache (its directory-mtime shortcuts can
 * miss a new file), no split or sparse index written beside the user's, every stat field compared (a reset mtime on a
 * same-size edit is still seen through ctime), stat data trusted for no file wholesale (`core.ignoreStat`), and files
 * outside a sparse-checkout cone that are on disk staged like any other (`git add` skips them otherwise).
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
];

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
