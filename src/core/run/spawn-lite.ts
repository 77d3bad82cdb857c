/**
 * Starts a process the way `child_process.spawn` does (the same `file` looked up on `env`'s PATH by libuv, the same
 * argv, environment, folder and descriptors), through the process handle `child_process` itself is built on, without
 * loading `node:child_process`: that module brings `net`, `dgram` and the streams, which cost a fast path more CPU
 * than its git's own start (bench/fast-path-phases.mjs). Only for children whose stdio are descriptors or ignored (no
 * pipes), on POSIX.
 *
 * Resolves to the exit code (null when a signal ended it), or to undefined when the child did not start. Returns
 * undefined at once, having started nothing, when the handle cannot be had here (another platform, a Node without
 * it, one that would warn about `process.binding`, the permission model) or an argument holds a NUL byte: the caller
 * then uses `child_process`, which reports such problems its own way.
 */

/** A child's descriptor: ignored, or one of ours. */
export type LiteStdio = 'ignore' | number;

interface ProcessHandle {
  onexit: (exitCode: number, signalCode: string) => void;
  spawn(options: Record<string, unknown>): number;
  close(): void;
}

type ProcessHandleClass = new () => ProcessHandle;

let handleClass: ProcessHandleClass | null | undefined;

export function spawnLite(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdio: readonly LiteStdio[] },
): Promise<number | null | undefined> | undefined {
  const Process = processHandleClass();
  if (!Process) return undefined;
  const envPairs: string[] = [];
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) envPairs.push(`${key}=${value}`);
  const argv = [file, ...args];
  if ([options.cwd, ...argv, ...envPairs].some((text) => text.includes('\0'))) return undefined;
  return new Promise((resolvePromise) => {
    const handle = new Process();
    handle.onexit = (exitCode, signalCode) => {
      handle.close();
      resolvePromise(signalCode ? null : exitCode);
    };
    let error: number;
    try {
      // The options child_process.spawn hands the same handle (lib/internal/child_process.js), pipes aside.
      error = handle.spawn({
        file,
        args: argv,
        cwd: options.cwd,
        envPairs,
        stdio: options.stdio.map((fd) => (fd === 'ignore' ? { type: 'ignore' } : { type: 'fd', fd })),
        detached: false,
        windowsHide: false,
        windowsVerbatimArguments: false,
      });
    } catch {
      resolvePromise(undefined); // refused before anything started (the permission model)
      return;
    }
    if (error !== 0) {
      handle.close();
      resolvePromise(undefined);
    }
  });
}

/**
 * The process handle's class, looked up once; null where it is not to be used. `process.binding` is deprecated in
 * the documentation only, unless pending deprecations are turned on: then it warns (on stderr, which a hook's caller
 * may show), so it is left alone.
 */
function processHandleClass(): ProcessHandleClass | null {
  if (handleClass !== undefined) return handleClass;
  handleClass = null;
  try {
    const pending =
      process.env.NODE_PENDING_DEPRECATION === '1' ||
      [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('pending-deprecation'));
    const binding = (process as unknown as { binding?: (name: string) => unknown }).binding;
    if (process.platform === 'win32' || pending || typeof binding !== 'function' || binding.name !== 'binding') {
      return handleClass;
    }
    const candidate = (binding.call(process, 'process_wrap') as { Process?: unknown }).Process;
    if (typeof candidate === 'function') handleClass = candidate as ProcessHandleClass;
  } catch {
    // the permission model, or a Node without this handle: child_process it is
  }
  return handleClass;
}
