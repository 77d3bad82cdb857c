import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { LockfileError } from './lockfile-error.js';

export interface TomlPackage {
  name: string;
  version: string;
  /**
   * Where it comes from: a string in Cargo.lock (`registry+https://…`, absent for the workspace's own crates), a table
   * in uv.lock (`{ registry = "…" }`, `{ editable = "." }`).
   */
  source?: string | Record<string, unknown>;
}

const packageSchema = z.looseObject({
  name: z.string().min(1),
  version: z.string().min(1),
  source: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
});
const lockSchema = z.looseObject({ package: z.array(packageSchema).optional() });

/**
 * The `[[package]]` tables of poetry.lock, Cargo.lock and uv.lock, read with a real TOML parser: any valid spelling
 * (`[[ package ]]`, inline arrays of tables, comments, literal strings) gives the same packages, and anything else is
 * a `LockfileError`, never an empty list that would read as "no dependency was added".
 */
export function tomlPackageTables(text: string, kind: string): TomlPackage[] {
  let toml: unknown;
  try {
    toml = parseToml(text);
  } catch (error) {
    throw new LockfileError(`not valid TOML (${(error as Error).message.split('\n')[0]})`);
  }
  const parsed = lockSchema.safeParse(toml);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'package';
    throw new LockfileError(`not a ${kind}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return (parsed.data.package ?? []).map(({ name, version, source }) => ({
    name,
    version,
    ...(source === undefined ? {} : { source }),
  }));
}
