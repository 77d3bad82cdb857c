import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, mkdir, open, readlink, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { errorMessage, TollgateError } from '../errors.js';
import { writeFileAtomic } from './atomic-write.js';

/**
 * Where a `--output PATH` lands. `-` is stdout. A symlink is followed to its target (the link stays). A regular file,
 * or a path that does not exist yet, is replaced atomically; anything else (a character device such as /dev/null, a
 * FIFO, a socket, a terminal) is opened and written through, never replaced: replacing /dev/null as root breaks every
 * later step on the machine.
 */
export type OutputTarget =
  | { kind: 'stdout' }
  | { kind: 'file'; path: string; exists: boolean; mode?: number }
  | { kind: 'device'; path: string };

/** Symlink hops before giving up, as the kernel does (ELOOP). */
const MAX_LINKS = 40;

export async function resolveOutputTarget(output: string, cwd: string): Promise<OutputTarget> {
  if (output === '-') return { kind: 'stdout' };
  let path = isAbsolute(output) ? output : resolve(cwd, output);
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (info === undefined) return { kind: 'file', path, exists: false };
    if (info.isSymbolicLink()) {
      path = resolve(dirname(path), await readlink(path));
      continue;
    }
    if (info.isFile()) return { kind: 'file', path, exists: true, mode: info.mode & 0o777 };
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    return { kind: 'device', path };
  }
  throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
}

function outputError(flag: string, output: string, error: unknown): TollgateError {
  // writeFileAtomic's own error already names the path: keep only what went wrong.
  const message = errorMessage(error).replace(`${output}: could not write: `, '');
  return new TollgateError('io', `${flag}: cannot write ${JSON.stringify(output)}: ${message}`);
}

/**
 * Checks, before any work, that `output` can be written: the folder is created and a probe file made and removed
 * there, or a device is writable. A report that cannot be delivered should fail in a second, not after every
 * validator ran.
 */
export async function checkOutputWritable(output: string, cwd: string, flag = '--output'): Promise<void> {
  try {
    const target = await resolveOutputTarget(output, cwd);
    if (target.kind === 'stdout') return;
    if (target.kind === 'device') {
      await access(target.path, constants.W_OK);
      return;
    }
    await mkdir(dirname(target.path), { recursive: true });
    const probe = join(dirname(target.path), `.${basename(target.path)}.${randomBytes(6).toString('hex')}.probe`);
    const handle = await open(probe, 'wx', 0o600);
    await handle.close();
    await unlink(probe);
    if (target.exists) await access(target.path, constants.W_OK);
  } catch (error) {
    throw outputError(flag, output, error);
  }
}

/**
 * Writes `text` where `output` says (see `OutputTarget`). Regular files keep their mode; new ones get the user's umask, as
 * any program's output file does (tollgate's own state under `.tollgate/` stays 0600). Failures are one `io` line naming the flag and the path.
 */
export async function writeOutput(
  output: string,
  text: string,
  io: { cwd: string; stdout(text: string): void },
  flag = '--output',
): Promise<void> {
  try {
    const target = await resolveOutputTarget(output, io.cwd);
    if (target.kind === 'stdout') {
      io.stdout(text);
      return;
    }
    if (target.kind === 'device') {
      await writeThrough(target.path, text);
      return;
    }
    await mkdir(dirname(target.path), { recursive: true });
    // A file the user named is theirs: a new one gets the mode their umask gives any new file (reports are masked).
    await writeFileAtomic(target.path, text, { label: output, mode: target.mode ?? 'umask' });
  } catch (error) {
    throw outputError(flag, output, error);
  }
}

/** Opens without creating or truncating (a device or FIFO has nothing to truncate) and writes everything. */
async function writeThrough(path: string, text: string): Promise<void> {
  const handle = await open(path, constants.O_WRONLY);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}
