import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { z } from 'zod';
import type { PackageVersion } from '../ecosystems.js';
import { LockfileError, parseJsonLockfile } from './lockfile-error.js';

/** `name@1.2.3` (scoped names keep their leading `@`); null when what follows the name is no registry version. */
function splitIdent(ident: string): { name: string; version: string } | null {
  const at = ident.lastIndexOf('@');
  if (at <= 0) return null;
  const version = ident.slice(at + 1);
  // workspace:, file:, link:, github:, git+…: not a registry version, nothing to look up.
  return /^\d/.test(version) ? { name: ident.slice(0, at), version } : null;
}

const bunLockSchema = z.looseObject({
  lockfileVersion: z.number(),
  packages: z.record(z.string(), z.array(z.unknown())).default({}),
});

/**
 * bun.lock (Bun 1.2+, JSON with comments and trailing commas): `packages` maps a path to `["name@version", …]`.
 * https://bun.sh/docs/install/lockfile
 */
export function parseBunLock(text: string): PackageVersion[] {
  const errors: ParseError[] = [];
  const json: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new LockfileError(`not valid JSONC (${printParseErrorCode(first.error)} at offset ${first.offset})`);
  }
  const parsed = bunLockSchema.safeParse(json);
  if (!parsed.success) throw new LockfileError(`not a bun.lock: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const found: PackageVersion[] = [];
  for (const [key, entry] of Object.entries(parsed.data.packages)) {
    if (typeof entry[0] !== 'string')
      throw new LockfileError(`not a bun.lock: packages.${key}[0]: expected "name@version"`);
    const ident = splitIdent(entry[0]);
    if (ident) found.push({ ecosystem: 'npm', ...ident });
  }
  return found;
}

const npmSection = z.record(z.string(), z.unknown());
const denoLockSchema = z.looseObject({
  version: z.string(),
  npm: npmSection.optional(),
  packages: z.looseObject({ npm: npmSection.optional() }).optional(),
});
const DENO_VERSIONS = new Set(['3', '4', '5']);

/**
 * deno.lock, versions 3 to 5: npm packages are keys `name@version` (a peer-dependency suffix after `_` in v3/v4) of
 * `npm` (v4, v5) or `packages.npm` (v3). JSR packages have no OSV ecosystem and are left out.
 */
export function parseDenoLock(text: string): PackageVersion[] {
  const parsed = denoLockSchema.safeParse(parseJsonLockfile(text));
  if (!parsed.success) throw new LockfileError(`not a deno.lock: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const { version } = parsed.data;
  if (!DENO_VERSIONS.has(version)) {
    throw new LockfileError(`deno.lock version ${JSON.stringify(version)}: tollgate reads versions 3 to 5`);
  }
  const npm = version === '3' ? parsed.data.packages?.npm : parsed.data.npm;
  const found: PackageVersion[] = [];
  for (const key of Object.keys(npm ?? {})) {
    const ident = splitIdent(key.split('_')[0]!);
    if (!ident) throw new LockfileError(`deno.lock: npm.${key}: expected "name@version"`);
    found.push({ ecosystem: 'npm', ...ident });
  }
  return found;
}
