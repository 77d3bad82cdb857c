import { LockfileError } from './lockfile-error.js';

export interface TomlPackage {
  name: string;
  version: string;
  /** Cargo.lock: where the crate comes from; absent for the workspace's own crates. */
  source?: string;
}

const STRING_FIELD = /^(name|version|source)\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/;

/**
 * The `[[package]]` tables of poetry.lock and Cargo.lock: both write one `key = "value"` per line, so the three
 * string fields we need are read line by line rather than with a full TOML parser. Sub-tables
 * (`[package.dependencies]`) end a package's own fields.
 */
export function tomlPackageTables(text: string): TomlPackage[] {
  const found: TomlPackage[] = [];
  let current: Partial<TomlPackage> | null = null;
  const flush = () => {
    if (!current) return;
    if (!current.name || !current.version) throw new LockfileError('a [[package]] table without name or version');
    found.push(current as TomlPackage);
    current = null;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      // Any table header ends the current package's own fields (`[package.dependencies]` is a sub-table).
      flush();
      if (line === '[[package]]') current = {};
      continue;
    }
    if (!current) continue;
    const match = STRING_FIELD.exec(line);
    if (match) (current as Record<string, string>)[match[1]!] = JSON.parse(`"${match[2]!}"`) as string;
  }
  flush();
  return found;
}
