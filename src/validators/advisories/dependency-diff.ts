import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appendAll } from '../../core/append-all.js';
import type { RepoChangeSet } from '../../core/change-set/types.js';
import type { ToolContext } from '../../core/pipeline/tool.js';
import { normalizePackageName, type PackageVersion } from './ecosystems.js';
import { LockfileError, lockfileParserFor } from './lockfiles/index.js';
import { exactVersion, LOCKFILES_FOR, type ManifestEntry, manifestParserFor } from './manifests.js';
import { comparatorFor } from './versions/compare-versions.js';
import { specIntervals } from './versions/spec-range.js';

/** A locked dependency and how the change touched it. */
export interface LockedDependency extends PackageVersion {
  /** Repo-relative path of the lockfile or manifest that pins it. */
  lockfile: string;
  /** `added`: new in this change; `changed`: the change moved it from `previous`; `unchanged`: only with `all`. */
  change: 'added' | 'changed' | 'unchanged';
  previous?: string;
}

export interface DependencyDiff {
  dependencies: LockedDependency[];
  /** Lockfiles read (changed ones, plus every tracked one with `all`), and manifests read without a lockfile. */
  lockfiles: string[];
  /** Lockfiles that could not be read, one line each. */
  problems: string[];
  /** Ranges added to manifests that have no lockfile beside them: what versions they admit is not known here. */
  unresolved: UnresolvedRange[];
}

export interface UnresolvedRange extends ManifestEntry {
  manifest: string;
}

function nameKey(pkg: PackageVersion): string {
  return `${pkg.ecosystem}\0${normalizePackageName(pkg.ecosystem, pkg.name)}`;
}

/**
 * What a lockfile diff added: name@version pairs in the new version that the old one did not have. The old version
 * (null for a new lockfile) comes from the base commit.
 */
export function diffLockedPackages(
  lockfile: string,
  before: readonly PackageVersion[] | null,
  after: readonly PackageVersion[],
  options: { all: boolean },
): LockedDependency[] {
  const oldPairs = new Set((before ?? []).map((pkg) => `${nameKey(pkg)}\0${pkg.version}`));
  const oldVersions = new Map<string, string>();
  for (const pkg of before ?? []) if (!oldVersions.has(nameKey(pkg))) oldVersions.set(nameKey(pkg), pkg.version);
  const seen = new Set<string>();
  const result: LockedDependency[] = [];
  for (const pkg of after) {
    const pair = `${nameKey(pkg)}\0${pkg.version}`;
    if (seen.has(pair)) continue;
    seen.add(pair);
    if (oldPairs.has(pair)) {
      if (options.all) result.push({ ...pkg, lockfile, change: 'unchanged' });
      continue;
    }
    const previous = oldVersions.get(nameKey(pkg));
    result.push(
      previous === undefined
        ? { ...pkg, lockfile, change: 'added' }
        : { ...pkg, lockfile, change: 'changed', previous },
    );
  }
  return result;
}

type Context = Pick<ToolContext<unknown, unknown>, 'repoRoot' | 'runProcess' | 'changeSet'>;

/** The base version of a file, or null when it did not exist there (or there is no base commit). */
async function baseText(ctx: Context, path: string): Promise<string | null> {
  const commit = ctx.changeSet.base.commit;
  if (!commit) return null;
  const shown = await ctx.runProcess('git', ['show', `${commit}:${path}`], {
    cwd: ctx.repoRoot,
    timeoutMs: 60_000,
    maxOutputBytes: 512 * 1024 * 1024,
  });
  return shown.exitCode === 0 ? shown.stdout : null;
}

async function trackedLockfiles(ctx: Context): Promise<string[]> {
  const listed = await ctx.runProcess('git', ['ls-files', '-z'], {
    cwd: ctx.repoRoot,
    timeoutMs: 60_000,
    maxOutputBytes: 256 * 1024 * 1024,
  });
  if (listed.exitCode !== 0) return [];
  return listed.stdout.split('\0').filter((path) => path !== '' && lockfileParserFor(path) !== undefined);
}

function parseOrProblem(
  path: string,
  text: string,
  problems: string[],
  which: 'new' | 'base',
): PackageVersion[] | null {
  try {
    return lockfileParserFor(path)!(text);
  } catch (error) {
    if (!(error instanceof LockfileError)) throw error;
    problems.push(`${path}${which === 'base' ? ' (base version)' : ''}: ${error.message}`);
    return null;
  }
}

/**
 * The dependencies the change set added or changed, from every changed lockfile and manifest; with `all`, every
 * dependency of every tracked lockfile (the unchanged ones marked so).
 */
export async function changedDependencies(ctx: Context, options: { all: boolean }): Promise<DependencyDiff> {
  const changeSet: RepoChangeSet = ctx.changeSet;
  const problems: string[] = [];
  const dependencies: LockedDependency[] = [];
  const lockfiles: string[] = [];
  const changed = changeSet.files.filter((file) => file.status !== 'deleted' && lockfileParserFor(file.path));
  for (const file of changed) {
    const text = await changeSet.readText(file.path);
    if (text === null) {
      problems.push(`${file.path}: not readable (binary or over validation.maxFileSize)`);
      continue;
    }
    const after = parseOrProblem(file.path, text, problems, 'new');
    if (!after) continue;
    const old = file.status === 'added' ? null : await baseText(ctx, file.oldPath ?? file.path);
    const before = old === null ? null : parseOrProblem(file.path, old, problems, 'base');
    lockfiles.push(file.path);
    appendAll(dependencies, diffLockedPackages(file.path, before, after, options));
  }
  if (options.all) {
    const done = new Set(changed.map((file) => file.path));
    for (const path of await trackedLockfiles(ctx)) {
      if (done.has(path)) continue;
      // Not in the change set, so read from the work tree (which equals the base for an unchanged file).
      const content = await readFile(join(ctx.repoRoot, path), 'utf8').catch(() => null);
      if (content === null) continue;
      const parsed = parseOrProblem(path, content, problems, 'new');
      if (!parsed) continue;
      lockfiles.push(path);
      appendAll(dependencies, diffLockedPackages(path, parsed, parsed, { all: true }));
    }
  }
  const manifests = await changedManifests(ctx, problems);
  appendAll(dependencies, manifests.dependencies);
  // A requirements file is read both as a lockfile (its pins) and as a manifest (its ranges): named once.
  for (const path of manifests.read) if (!lockfiles.includes(path)) lockfiles.push(path);
  return { dependencies, lockfiles, problems, unresolved: manifests.unresolved };
}

/**
 * Manifests the change touched that no lockfile pins (none beside them in the tree): the entries it added or changed,
 * exact versions to check like locked ones, ranges to report as not resolvable without a lockfile.
 */
async function changedManifests(ctx: Context, problems: string[]) {
  const dependencies: LockedDependency[] = [];
  const unresolved: UnresolvedRange[] = [];
  const read: string[] = [];
  for (const file of ctx.changeSet.files) {
    const found = file.status === 'deleted' ? undefined : manifestParserFor(file.path);
    if (!found) continue;
    const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
    const locks = LOCKFILES_FOR[found.kind] ?? [];
    if (locks.some((lock) => existsSync(join(ctx.repoRoot, dir, lock)))) continue;
    const text = await ctx.changeSet.readText(file.path);
    if (text === null) {
      problems.push(`${file.path}: not readable (binary or over validation.maxFileSize)`);
      continue;
    }
    let after: ManifestEntry[];
    let before: ManifestEntry[] = [];
    try {
      after = found.parser(text);
      const old = file.status === 'added' ? null : await baseText(ctx, file.oldPath ?? file.path);
      if (old !== null) before = found.parser(old);
    } catch (error) {
      if (!(error instanceof LockfileError)) throw error;
      problems.push(`${file.path}: ${error.message}`);
      continue;
    }
    read.push(file.path);
    const previous = new Map(before.map((entry) => [nameKey({ ...entry, version: '' }), entry.spec]));
    for (const entry of after) {
      const was = previous.get(nameKey({ ...entry, version: '' }));
      if (was === entry.spec) continue;
      const version = exactVersion(entry.ecosystem, entry.spec);
      // requirements*.txt pins are read as a lockfile already; only its ranges are new here.
      if (version !== null && found.kind === 'requirements.txt') continue;
      if (version === null) {
        // A range: checked against every advisory of the package when its bounds can be read, else listed as open.
        if (specIntervals(entry.ecosystem, entry.spec, comparatorFor(entry.ecosystem)) === null) {
          unresolved.push({ ...entry, manifest: file.path });
        } else {
          const ranged = {
            ecosystem: entry.ecosystem,
            name: entry.name,
            version: entry.spec,
            range: true as const,
            lockfile: file.path,
          };
          dependencies.push(
            was === undefined ? { ...ranged, change: 'added' } : { ...ranged, change: 'changed', previous: was },
          );
        }
      } else {
        const pinned = { ecosystem: entry.ecosystem, name: entry.name, version, lockfile: file.path };
        dependencies.push(
          was === undefined ? { ...pinned, change: 'added' } : { ...pinned, change: 'changed', previous: was },
        );
      }
    }
  }
  return { dependencies, unresolved, read };
}
