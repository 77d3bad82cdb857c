import { type ProcessResult, runProcess } from '../process.js';

/**
 * Runs git for the change set (argv only, through `runProcess`). `GIT_OPTIONAL_LOCKS=0` keeps read-only commands from
 * refreshing the user's index behind their back, and `LC_ALL=C` keeps the few stderr lines we read in English.
 */
export interface GitRunner {
  /** The directory git runs in (the work tree root for the change set). */
  readonly cwd: string;
  /** Resolves with the whole result, whatever the exit code. */
  run(args: readonly string[], options?: GitRunOptions): Promise<ProcessResult>;
  /** Resolves with stdout; rejects (internal error) on a non-zero exit or truncated output. */
  output(args: readonly string[], options?: GitRunOptions): Promise<string>;
  /** Like `output`, as the bytes git wrote: for large outputs that are parsed, not read as a whole. */
  outputBytes(args: readonly string[], options?: GitRunOptions): Promise<Buffer>;
}

export interface GitRunOptions {
  /** Extra environment (e.g. `GIT_INDEX_FILE` for the temporary index). */
  env?: Record<string, string>;
  input?: string;
  /** `outputBytes` only: sees each stdout chunk as it arrives, to act on the start of a long output early. */
  onStdout?: (chunk: Buffer) => void;
  /** `outputBytes` only: stdout goes to `onStdout` alone, and the result is empty (a caller that parses as it reads). */
  streamOnly?: boolean;
  /** `run` only: stops git (SIGTERM to its group: git removes its lock files) when the work is abandoned. */
  signal?: AbortSignal;
}

/** Diffs of large change sets are big; the cap only guards against a runaway, and hitting it is an error. */
const MAX_GIT_OUTPUT = 1024 * 1024 * 1024;

/**
 * Settings under which git reports what is on disk, whatever the repository's config says: no file system monitor
 * (a hook that answers "nothing changed" would hide edits), no untracked cache (its directory-mtime shortcuts can
 * miss a new file), no split or sparse index written beside the user's, every stat field compared (a reset mtime on a
 * same-size edit is still seen through ctime), stat data trusted for no file wholesale (`core.ignoreStat`), and files
 * outside a sparse-checkout cone that are on disk staged like any other (`git add` skips them otherwise).
 */
export const SNAPSHOT_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.splitIndex', 'false'],
  ['core.trustctime', 'true'],
  ['core.checkStat', 'default'],
  ['core.ignoreStat', 'false'],
  ['index.sparse', 'false'],
  ['core.sparseCheckout', 'false'],
];

/**
 * `GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n` entries (git 2.31+) that come after any the caller's environment already
 * holds; they take precedence over every config file, like `-c`.
 */
export function forcedConfigEnv(
  env: NodeJS.ProcessEnv,
  settings: ReadonlyArray<readonly [string, string]>,
): Record<string, string> {
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  const start = Number.isInteger(existing) && existing > 0 ? existing : 0;
  const forced: Record<string, string> = { GIT_CONFIG_COUNT: String(start + settings.length) };
  settings.forEach(([key, value], offset) => {
    forced[`GIT_CONFIG_KEY_${start + offset}`] = key;
    forced[`GIT_CONFIG_VALUE_${start + offset}`] = value;
  });
  return forced;
}

export function createGitRunner(cwd: string): GitRunner {
  const baseEnv: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
    ...forcedConfigEnv(process.env, SNAPSHOT_GIT_CONFIG),
  };
  const run = async (args: readonly string[], options: GitRunOptions = {}): Promise<ProcessResult> => {
    const result = await runProcess('git', args, {
      cwd,
      env: options.env ? { ...baseEnv, ...options.env } : baseEnv,
      maxOutputBytes: MAX_GIT_OUTPUT,
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (result.spawnError) {
      throw new Error(`could not run git (${result.spawnError.code ?? result.spawnError.message}): is git installed?`);
    }
    return result;
  };
  return {
    cwd,
    run,
    async output(args, options) {
      const result = await run(args, options);
      if (result.exitCode !== 0 || result.truncated) {
        const why = result.truncated ? 'output too large' : result.stderr.trim() || `exit code ${result.exitCode}`;
        throw new Error(`git ${args[0] ?? ''} failed: ${why}`);
      }
      return result.stdout;
    },
    async outputBytes(args, options = {}) {
      // Collect the raw chunks ourselves and let runProcess keep (almost) nothing: no copy into a string.
      const chunks: Buffer[] = [];
      const errors: Buffer[] = [];
      let size = 0;
      const overflow = new AbortController();
      const result = await runProcess('git', args, {
        cwd,
        env: options.env ? { ...baseEnv, ...options.env } : baseEnv,
        maxOutputBytes: 1,
        signal: overflow.signal,
        onOutput: (stream, chunk) => {
          if (stream === 'stderr') {
            errors.push(chunk);
            return;
          }
          size += chunk.length;
          if (size > MAX_GIT_OUTPUT) {
            overflow.abort();
            return;
          }
          if (!options.streamOnly) chunks.push(chunk);
          options.onStdout?.(chunk);
        },
        ...(options.input !== undefined ? { input: options.input } : {}),
      });
      if (result.spawnError) throw new Error(`could not run git (${result.spawnError.code}): is git installed?`);
      if (result.exitCode !== 0 || result.aborted) {
        const why = result.aborted ? 'output too large' : Buffer.concat(errors).toString('utf8').trim();
        throw new Error(`git ${args[0] ?? ''} failed: ${why || `exit code ${result.exitCode}`}`);
      }
      return Buffer.concat(chunks);
    },
  };
}
