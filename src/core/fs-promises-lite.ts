import * as fs from 'node:fs';

/**
 * What the fast paths' small bundles get for `node:fs/promises` (scripts/bundle-lib.mjs puts this module in its
 * place there, and only there): the same calls, made through the callback API of `node:fs`, which every process has
 * loaded. Loading `node:fs/promises` itself (with the file watchers and readline it brings) cost each stop and each
 * repeat run more than all the files they read. The calls the fast paths make on every answer (reads, stats,
 * listings, removes, renames) are the callback functions, whose behaviour the promise API shares; the rest (`open`,
 * whose FileHandle only the promise API has, and the writes a first run makes) load the real module when called.
 */
function promised(call: (...args: never[]) => void): (...args: unknown[]) => Promise<unknown> {
  return (...args) =>
    new Promise((resolve, reject) => {
      (call as (...args: unknown[]) => void)(...args, (error: NodeJS.ErrnoException | null, result?: unknown) =>
        error ? reject(error) : resolve(result),
      );
    });
}

export const readFile = promised(fs.readFile) as unknown as typeof fs.promises.readFile;
export const lstat = promised(fs.lstat) as unknown as typeof fs.promises.lstat;
export const stat = promised(fs.stat) as unknown as typeof fs.promises.stat;
export const readdir = promised(fs.readdir) as unknown as typeof fs.promises.readdir;
export const rm = promised(fs.rm) as unknown as typeof fs.promises.rm;
export const rename = promised(fs.rename) as unknown as typeof fs.promises.rename;
export const unlink = promised(fs.unlink) as unknown as typeof fs.promises.unlink;

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
