import { join } from 'node:path';
import { withKeptHeap } from '../kept-heap-env.js';
import { lstatOrNull } from '../lstat-or-null.js';
import { readBlobs } from './blob-reader.js';
import { DigestCache } from './digest-cache.js';
import type { GitRunner } from './git.js';

/**
 * Names of the filter drivers the config defines with a `clean` or `process` command. A clean filter decides what
 * `git add` stores, so a driver that drops lines (or an LFS-style one that stores a pointer) would decide what the
 * validators see. Null when there are none (the common case: nothing more to do).
 */
export async function filterDrivers(git: GitRunner): Promise<Set<string> | null> {
  const result = await git.run(['config', '-z', '--get-regexp', '^filter\\..*\\.(clean|process)$']);
  if (result.exitCode !== 0) return null; // 1: no such key
  const drivers = new Set<string>();
  for (const record of result.stdout.split('\0')) {
    const newline = record.indexOf('\n');
    const key = newline === -1 ? record : record.slice(0, newline);
    const value = newline === -1 ? '' : record.slice(newline + 1);
    const name = /^filter\.(.+)\.(clean|process)$/.exec(key)?.[1];
    if (name !== undefined && value.trim() !== '') drivers.add(name);
  }
  return drivers.size > 0 ? drivers : null;
}

interface StagedFile {
  mode: string;
  id: string;
  path: string;
}

export interface KeepRawBytesOptions {
  env: Record<string, string>;
  drivers: ReadonlySet<string>;
  objectFormat: string;
  baseCommit: string | null;
}

/**
 * Puts the bytes on disk, not a clean filter's output, into the temporary index for every file whose `filter`
 * attribute names a configured driver and whose filtered blob is not those bytes. One exception keeps the filtered
 * blob: an unchanged Git LFS pointer (the base's blob) that names exactly these bytes by SHA-256, so an LFS repository
 * does not show every stored file as changed. A changed LFS file is scanned as the bytes on disk.
 */
export async function keepRawBytes(git: GitRunner, options: KeepRawBytesOptions): Promise<void> {
  const { env } = options;
  const filtered = await filteredFiles(git, env, options.drivers);
  if (filtered.length === 0) return;
  const digests = await DigestCache.open(git.cwd);
  const differing: Array<StagedFile & { sha256: string | null }> = [];
  for (const file of filtered) {
    const stats = lstatOrNull(join(git.cwd, file.path));
    if (stats === null || !stats.isFile()) continue; // a deletion or a type change: `git add` saw it as it is
    const digest = await digests.digestOf(file.path, options.objectFormat);
    if (digest?.blobId !== file.id) differing.push({ ...file, sha256: digest?.sha256 ?? null });
  }
  await digests.save();
  if (differing.length === 0) return;
  const honest = await unchangedLfsPointers(git, differing, options.baseCommit);
  const raw = differing.filter((file) => !honest.has(file.path));
  if (raw.length === 0) return;
  const ids = await hashRawBytes(
    git,
    raw.map((file) => file.path),
  );
  const records = raw.map((file, index) => `${file.mode} ${ids[index]}\t${file.path}\0`);
  await git.output(['update-index', '-z', '--index-info'], { env, input: records.join('') });
}

/**
 * The staged regular files whose `filter` attribute names one of `drivers`. When every driver's name can be spelled
 * in a pathspec, git picks them in one pass over the index (`:(attr:filter=NAME)`, the same attribute lookup as
 * `check-attr`: .gitattributes on disk or else in the index, info/attributes, the global and system files, macros):
 * a user with Git LFS set up globally no longer has every path of every repository sent through `check-attr`
 * (100,000 paths: about 0.35 s of CPU on each run). Other names fall back to listing the index and asking `check-attr`.
 */
async function filteredFiles(
  git: GitRunner,
  env: Record<string, string>,
  drivers: ReadonlySet<string>,
): Promise<StagedFile[]> {
  const names = [...drivers];
  if (names.every((name) => PATHSPEC_ATTR_VALUE.test(name))) {
    const pathspecs = names.map((name) => `:(top,attr:filter=${name})`);
    return parseStaged(
      await git.outputBytes(['ls-files', '-s', '-z', '--', ...pathspecs], { env: { ...env, ...MAGIC_PATHSPECS } }),
    );
  }
  const staged = parseStaged(await git.outputBytes(['ls-files', '-s', '-z'], { env }));
  if (staged.length === 0) return [];
  const attributes = await git.output(['check-attr', '-z', '--stdin', 'filter'], {
    env,
    input: `${staged.map((file) => file.path).join('\0')}\0`,
  });
  const filtered = filteredPaths(attributes, drivers);
  return staged.filter((file) => filtered.has(file.path));
}

/** What git accepts as an attribute value in a pathspec without escaping (`invalid_value_char` in pathspec.c). */
const PATHSPEC_ATTR_VALUE = /^[A-Za-z0-9_-]+$/;

/** Pathspec magic stays magic, and matches as written, whatever the user exports. */
const MAGIC_PATHSPECS: Record<string, string> = {
  GIT_LITERAL_PATHSPECS: '0',
  GIT_GLOB_PATHSPECS: '0',
  GIT_NOGLOB_PATHSPECS: '0',
  GIT_ICASE_PATHSPECS: '0',
};

/**
 * Writes each file's bytes on disk, unfiltered, as a blob; the ids in the order of `paths`. One `hash-object` reads
 * every path given a line each; a path it would read differently from a line (a newline in it, a leading quote, which
 * git takes for C-style quoting) gets a process of its own.
 */
async function hashRawBytes(git: GitRunner, paths: readonly string[]): Promise<string[]> {
  const byLine = paths.filter((path) => !path.includes('\n') && !path.startsWith('"'));
  const ids = new Map<string, string>();
  if (byLine.length > 0) {
    const output = await git.output(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
      env: withKeptHeap({}),
      input: `${byLine.join('\n')}\n`,
    });
    const lines = output.split('\n');
    for (const [index, path] of byLine.entries()) ids.set(path, lines[index]?.trim() ?? '');
  }
  for (const path of paths) {
    if (!ids.has(path)) ids.set(path, (await git.output(['hash-object', '-w', '--no-filters', '--', path])).trim());
  }
  return paths.map((path) => {
    const id = ids.get(path);
    if (!id || !/^[0-9a-f]{40,64}$/.test(id)) throw new Error(`git hash-object gave no blob id for ${path}`);
    return id;
  });
}

/** Paths whose staged blob is the base's and an LFS pointer to a file with the SHA-256 found on disk. */
async function unchangedLfsPointers(
  git: GitRunner,
  files: ReadonlyArray<StagedFile & { sha256: string | null }>,
  baseCommit: string | null,
): Promise<Set<string>> {
  const honest = new Set<string>();
  if (baseCommit === null) return honest;
  const lookups = files.filter((file) => !file.path.includes('\n'));
  const check = await git.output(['cat-file', '--batch-check'], {
    input: lookups.map((file) => `${baseCommit}:${file.path}\n`).join(''),
  });
  const baseIds = check.split('\n').map((line) => line.split(' ')[0]);
  const unchanged = lookups.filter((file, index) => baseIds[index] === file.id);
  const blobs = await readBlobs(
    git,
    unchanged.map((file) => file.id),
  );
  for (const file of unchanged) {
    const pointer = blobs.get(file.id);
    const oid = pointer && pointer.length < 1024 ? /^oid sha256:([0-9a-f]{64})$/m.exec(pointer.toString('utf8')) : null;
    if (oid && file.sha256 === oid[1] && pointer?.toString('utf8').startsWith('version https://git-lfs.github.com/'))
      honest.add(file.path);
  }
  return honest;
}

/** `git ls-files -s -z`: `<mode> <id> <stage>\t<path>\0`; regular files at stage 0 only. */
function parseStaged(output: Buffer): StagedFile[] {
  const files: StagedFile[] = [];
  for (const record of output.toString('utf8').split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const [mode = '', id = '', stage = ''] = record.slice(0, tab).split(' ');
    if (stage === '0' && (mode === '100644' || mode === '100755'))
      files.push({ mode, id, path: record.slice(tab + 1) });
  }
  return files;
}

/** `git check-attr -z`: `<path>\0filter\0<value>\0` per path; the paths whose value is a configured driver. */
function filteredPaths(output: string, drivers: ReadonlySet<string>): Set<string> {
  const fields = output.split('\0');
  const paths = new Set<string>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    if (drivers.has(fields[i + 2]!)) paths.add(fields[i]!);
  }
  return paths;
}
