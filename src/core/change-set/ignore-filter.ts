import ignore from 'ignore';

/**
 * The config `ignore` patterns (gitignore syntax, via the `ignore` package). Returns whether a repo-relative path is
 * left out of the change set.
 */
export function createIgnoreFilter(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const matcher = ignore().add([...patterns]);
  return (path) => {
    try {
      return matcher.ignores(path);
    } catch {
      // `ignore` rejects paths it considers invalid (it should never see one from git); keep such a path listed.
      return false;
    }
  };
}
