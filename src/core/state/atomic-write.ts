import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { chmod, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { errorMessage, TollgateError } from '../errors.js';

/**
 * A state file is parsed once per process: zod's compiled fast path (generated code, compiled by V8) costs more than
 * it saves on a single parse, and every command pays it on its way to work.
 */
export const ONE_SHOT = { jitless: true } as const;

export interface WriteFileAtomicOptions {
  /**
   * Mode of the final file. Default 0600: state may name files and findings, so only the owner reads it. `umask`: as
   * any program's new file, 0666 less the user's umask (a report the user asked for at a path of their choosing).
   */
  mode?: number | 'umask';
  /** How the file is named in error messages (`.tollgate/state.json`); default the path. */
  label?: string;
  /**
   * false: still atomic, but not flushed to disk before and after the rename (no fsync): for a file whose loss in a
   * crash costs nothing, written where every millisecond counts. Default true.
   */
  durable?: boolean;
}

/**
 * A temp file in the same directory (so the rename cannot cross file systems), created exclusively with mode 0600
 * under a name no other writer can pick.
 */
function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** The mode the temp file is created with: the kernel takes the umask off 0666, never off 0600. */
function createMode(options: WriteFileAtomicOptions): number {
  return options.mode === 'umask' ? 0o666 : 0o600;
}

/**
 * Write, fsync, rename over the target, fsync the directory. A reader sees the old content or the new, never a
 * torn file; a crash leaves at worst a stray `.<name>.<pid>.<random>.tmp`, and any failure removes the temp file
 * and leaves the old content in place.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const temp = tempPathFor(path);
  let created = false;
  try {
    const handle = await open(temp, 'wx', createMode(options));
    created = true;
    try {
      await handle.writeFile(data);
      if (options.durable !== false) await handle.sync();
    } finally {
      await handle.close();
    }
    if (typeof options.mode === 'number' && options.mode !== 0o600) await chmod(temp, options.mode);
    await rename(temp, path);
    created = false;
    if (options.durable !== false) syncDirectory(dirname(path));
  } catch (error) {
    if (created) await unlink(temp).catch(() => {});
    throw writeError(options.label ?? path, error);
  }
}

/**
 * The same as `writeFileAtomic`, for the few places that must not yield (exit handlers, first-time setup) or where a
 * tiny file's trip through the thread pool costs more than its write (the no-change run's record).
 */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): void {
  const temp = tempPathFor(path);
  let created = false;
  try {
    const fd = openSync(temp, 'wx', createMode(options));
    created = true;
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      let written = writeSync(fd, bytes);
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      if (options.durable !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (typeof options.mode === 'number' && options.mode !== 0o600) chmodSync(temp, options.mode);
    renameSync(temp, path);
    created = false;
    if (options.durable !== false) syncDirectory(dirname(path));
  } catch (error) {
    if (created) {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone.
      }
    }
    throw writeError(options.label ?? path, error);
  }
}

/** Makes the rename itself durable. Some platforms and file systems cannot fsync a directory; the rename still stands. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // EISDIR/EPERM/EINVAL on Windows and some network file systems: best effort.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeError(label: string, error: unknown): TollgateError {
  if (error instanceof TollgateError) return error;
  return new TollgateError('io', `${label}: could not write: ${errorMessage(error)}`);
}

export type JsonFileRead<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; value: T }
  /** The file exists but is not what we wrote: `problem` says why, in words for a message. */
  | { kind: 'corrupt'; problem: string };

/** Reads and validates a JSON file without deciding what a missing or corrupt file means; callers decide. */
export async function readJsonFileResult<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
): Promise<JsonFileRead<z.output<Schema>>> {
  const text = await readTextIfPresent(path);
  if (text === undefined) return { kind: 'missing' };
  const json = parseJsonText(text);
  return json.kind === 'json' ? parseJsonShape(json.value, schema) : json;
}

/** A file's text; `undefined` when it does not exist. Any other failure is an `io` error that names the file. */
export async function readTextIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new TollgateError('io', `${path}: could not read: ${errorMessage(error)}`);
  }
}

/** Parses a state file's text, saying in words why it is not JSON when it is not. */
export function parseJsonText(text: string): { kind: 'json'; value: unknown } | { kind: 'corrupt'; problem: string } {
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch (error) {
    return { kind: 'corrupt', problem: `not valid JSON (${errorMessage(error)})` };
  }
}

/** Validates parsed JSON against `schema`, naming the first field that does not fit. */
export function parseJsonShape<Schema extends z.ZodType>(
  json: unknown,
  schema: Schema,
): JsonFileRead<z.output<Schema>> {
  const parsed = schema.safeParse(json, ONE_SHOT);
  if (parsed.success) return { kind: 'ok', value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
  return { kind: 'corrupt', problem: `unexpected content${where}: ${issue?.message ?? 'invalid'}` };
}

export interface ReadJsonFileOptions {
  /** How the file is named in messages, relative to the repository root (`.tollgate/state.json`). */
  label?: string;
  /** What the user should do about a corrupt file. Default: delete it to start fresh. */
  remedy?: string;
}

/**
 * Reads a JSON file validated by `schema`; `undefined` when it does not exist. A corrupt file is an `io` error that
 * names the file and the fix, e.g. `.tollgate/state.json: not valid JSON (…); delete it to start fresh`.
 */
export async function readJsonFile<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: ReadJsonFileOptions = {},
): Promise<z.output<Schema> | undefined> {
  const read = await readJsonFileResult(path, schema);
  switch (read.kind) {
    case 'missing':
      return undefined;
    case 'ok':
      return read.value;
    case 'corrupt':
      throw new TollgateError(
        'io',
        `${options.label ?? path}: ${read.problem}; ${options.remedy ?? 'delete it to start fresh'}`,
      );
  }
}
