import { closeSync, fstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { childProcess } from '../child-process-lazy.js';
import { os } from '../os-lazy.js';

/** A git process's exit code (-1 when it could not run or its output was too big) and its stdout. */
export interface GitResult {
  code: number;
  stdout: string;
}

/** An output beyond this is a tree for the full path. */
const MAX_OUTPUT = 64 * 1024 * 1024;
const SHELL = '/bin/sh';

/**
 * Runs `git ARGS` for each of `commands` at once and resolves to their results in the same order. On POSIX they are
 * started by one `/bin/sh`, not one by one from here: starting a process from Node forks all of Node, which cost a
 * fast path more than git's own work; a shell forks cheaply. The commands are the same either way (each `git` from
 * PATH, with `env`, in `cwd`), and when the shell cannot start they are started one by one. `shell` is for tests.
 */
export async function gitAll(
  commands: ReadonlyArray<readonly string[]>,
  cwd: string,
  env: NodeJS.ProcessEnv,
  shell: string = SHELL,
): Promise<GitResult[]> {
  if (process.platform !== 'win32' && commands.length > 1) {
    const batched = await throughShell(commands, cwd, env, shell);
    if (batched) return batched;
  }
  return Promise.all(commands.map((args) => git(args, cwd, env)));
}

/**
 * git's stdout goes to a temporary file, unlinked as soon as it is open, read back through our descriptor once git
 * exits: no pipe, stream or socket objects for these short processes, and nothing left behind whatever happens. No
 * stdin, no stderr. No time limit of its own: a slow git is waited for, and the caller's deadline decides.
 */
function git(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<GitResult> {
  const fd = openOutput();
  if (fd === undefined) return Promise.resolve({ code: -1, stdout: '' });
  return run('git', args, { cwd, env, stdio: ['ignore', fd, 'ignore'] }).then((code) => readOutput(fd, code ?? -1));
}

/**
 * Runs `file` and resolves to its exit code: null when a signal ended it, undefined when it did not start. Through
 * `child_process`, loaded here at the first call. (Its own process handle, `process.binding('process_wrap')`, would
 * spare the module's load, but that handle's arguments are Node's internals: Node 24 aborts the process on the ones
 * Node 20 takes.)
 */
async function run(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; stdio: Array<'ignore' | number> },
): Promise<number | null | undefined> {
  const { spawn } = childProcess();
  return new Promise((resolvePromise) => {
    let settled = false;
    const finish = (code: number | null | undefined) => {
      if (settled) return;
      settled = true;
      resolvePromise(code);
    };
    try {
      const child = spawn(file, args, options);
      child.on('error', () => finish(undefined));
      child.on('close', (code) => finish(code));
    } catch {
      finish(undefined);
    }
  });
}

/** The results of one shell running every command in the background, or undefined when the shell did not start. */
function throughShell(
  commands: ReadonlyArray<readonly string[]>,
  cwd: string,
  env: NodeJS.ProcessEnv,
  shell: string,
): Promise<GitResult[] | undefined> {
  const fds: number[] = [];
  for (let index = 0; index <= commands.length; index++) {
    const fd = openOutput();
    if (fd === undefined) {
      for (const open of fds) closeSync(open);
      return Promise.resolve(commands.map(() => ({ code: -1, stdout: '' })));
    }
    fds.push(fd);
  }
  const [codesFd, ...outputFds] = fds as [number, ...number[]];
  const stdio: Array<'ignore' | number> = ['ignore', codesFd, 'ignore', ...outputFds];
  return run(shell, ['-c', shellScript(commands)], { cwd, env: shellEnv(env), stdio }).then((shellCode) => {
    const codes = readOutput(codesFd, shellCode ?? -1);
    if (shellCode === undefined) {
      for (const fd of outputFds) closeSync(fd);
      return undefined;
    }
    const exitCodes = parseCodes(codes, commands.length);
    return outputFds.map((fd, index) => readOutput(fd, exitCodes[index]!));
  });
}

/**
 * Command i writes to descriptor 3 + i; the shell then prints every exit code on one line. Every word is quoted and
 * `command` skips any shell function named git, so nothing but `env`'s PATH decides what runs.
 */
export function shellScript(commands: ReadonlyArray<readonly string[]>): string {
  const lines = commands.map(
    (args, index) => `command git ${args.map(shellQuote).join(' ')} >&${3 + index} & p${index}=$!`,
  );
  const waits = commands.map((_, index) => `wait "$p${index}"; c${index}=$?`);
  const codes = commands.map((_, index) => `"$c${index}"`).join(' ');
  const format = commands.map(() => '%s').join(' ');
  return [...lines, ...waits, `printf '${format}\\n' ${codes}`].join('\n');
}

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Each command's exit code; all -1 unless the shell printed one whole number for each. */
function parseCodes(result: GitResult, count: number): number[] {
  const words = result.stdout.trim().split(' ');
  const valid = result.code === 0 && words.length === count && words.every((word) => /^\d{1,3}$/.test(word));
  return valid ? words.map(Number) : Array.from({ length: count }, () => -1);
}

/**
 * `env` without what would make the shell itself run something else: startup files (ENV, BASH_ENV), exported bash
 * functions and shell options (an inherited `errexit` would stop it before it printed the exit codes). git never
 * reads these.
 */
function shellEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (key === 'ENV' || key === 'BASH_ENV' || key === 'SHELLOPTS' || key === 'BASHOPTS') continue;
    if (key.startsWith('BASH_FUNC_')) continue;
    kept[key] = value;
  }
  return kept;
}

let outputs = 0;

/**
 * A temporary file already unlinked, open for reading and writing; undefined when none could be made. Created with
 * O_EXCL (never an existing file or a symlink someone left there) under a name unique to this process; a name that
 * is taken is tried again under another. No cryptographic randomness: a guessed name can only make the stamp fail
 * (the full path then decides), and loading node:crypto before git starts would delay git.
 */
function openOutput(): number | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    const unique = `${process.pid}-${outputs++}-${Math.random().toString(36).slice(2)}`;
    const path = join(os().tmpdir(), `.tollgate-stamp-${unique}`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      return undefined;
    }
    try {
      unlinkSync(path);
      return fd;
    } catch {
      closeSync(fd);
      return undefined;
    }
  }
  return undefined;
}

/** What was written to `fd`, which is closed; `code` becomes -1 when it could not be read or is too big. */
function readOutput(fd: number, code: number): GitResult {
  let stdout = '';
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_OUTPUT) code = -1;
    else {
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      for (let count = 1; read < size && count > 0; read += count) {
        count = readSync(fd, bytes, read, size - read, read);
      }
      stdout = bytes.toString('utf8', 0, read);
    }
  } catch {
    code = -1;
  } finally {
    closeSync(fd);
  }
  return { code, stdout };
}
