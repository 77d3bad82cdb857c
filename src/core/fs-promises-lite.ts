import * as fs from 'node:fs';

/**
 * What the fast paths' small bundles get for `node:fs/promises` (scripts/bundle-lib.mjs puts this module in its
 * place there, and only there): the same calls and answers, made at once on this thread. Loading `node:fs/promises`
 * itself (with the file watchers and readline it brings) cost each stop and each repeat run more than all the files
 * they read, and so did the thread pool the callback API starts at its first call (four threads, for reads of a few
 * small files in `.tollgate/` while the process has nothing else to do but wait for git). The calls the fast paths
 * make on every answer (reads, stats, listings, removes, renames) are these; the rest (`open`, whose FileHandle only
 * the promise API has, and the writes a first run makes) load the real module when called.
 */
function now<Result>(call: () => Result): Promise<Result> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Only a regular file (or a folder, which fails as the promise API fails): a FIFO or a device would block this
 * thread where the promise API blocks one of its pool's, so the timers that hand a slow answer to the full path
 * could never fire. It is opened without waiting (O_NONBLOCK: a FIFO's open waits for a writer) and refused.
 */
function readRegularFile(path: fs.PathLike, options?: unknown): string | Buffer {
  const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const info = fs.fstatSync(fd);
    if (!info.isFile() && !info.isDirectory()) {
      const error: NodeJS.ErrnoException = new Error(`EAGAIN: not a regular file, read '${String(path)}'`);
      throw Object.assign(error, { code: 'EAGAIN', syscall: 'read', path: String(path) });
    }
    return fs.readFileSync(fd, options as BufferEncoding);
  } finally {
    fs.closeSync(fd);
  }
}

export const readFile = ((path: fs.PathLike, options?: unknown) =>
  now(() => readRegularFile(path, options))) as unknown as typeof fs.promises.readFile;
export const lstat = ((path: fs.PathLike, options?: fs.StatOptions) =>
  now(() => fs.lstatSync(path, options))) as unknown as typeof fs.promises.lstat;
export const stat = ((path: fs.PathLike, options?: fs.StatOptions) =>
  now(() => fs.statSync(path, options))) as unknown as typeof fs.promises.stat;
export const readdir = ((path: fs.PathLike, options?: unknown) =>
  now(() => fs.readdirSync(path, options as BufferEncoding))) as unknown as typeof fs.promises.readdir;
export const rm = ((path: fs.PathLike, options?: fs.RmOptions) =>
  now(() => fs.rmSync(path, options))) as unknown as typeof fs.promises.rm;
export const rename = ((from: fs.PathLike, to: fs.PathLike) =>
  now(() => fs.renameSync(from, to))) as unknown as typeof fs.promises.rename;
export const unlink = ((path: fs.PathLike) => now(() => fs.unlinkSync(path))) as unknown as typeof fs.promises.unlink;

/** The promise API's own function, loaded at its first call. */
function later<Name extends keyof typeof fs.promises>(name: Name): (typeof fs.promises)[Name] {
  return ((...args: unknown[]) => (fs.promises[name] as (...args: unknown[]) => unknown)(...args)) as never;
}

export const open = later('open');
export const mkdir = later('mkdir');
export const link = later('link');
export const chmod = later('chmod');
export const writeFile = later('writeFile');
export const copyFile = later('copyFile');
export const rmdir = later('rmdir');
