import { type ProcessResult, runProcess } from '../process.js';
import { fixedGitEnv } from './snapshot-git-config.js';

export { fixedGitEnv, forcedConfigEnv, SNAPSHOT_GIT_CONFIG } from './snapshot-git-config.js';

/**
 * Runs git for the change set (argv only, through `runProcess`), in the fixed environment of every git tollgate starts
 * (`fixedGitEnv`), with `LC_ALL=C` to keep the few stderr lines we read in English.
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
  /** Bytes for stdin (a path that is not UTF-8 stays as its bytes). */
  input?: string | Buffer;
  /** `outputBytes` only: sees each stdout chunk as it arrives, to act on the start of a long output early. */
  onStdout?: (chunk: Buffer) => void;
  /** `outputBytes` only: stdout goes to `onStdout` alone, and the result is empty (a caller that parses as it reads). */
  streamOnly?: boolean;
  /** `run` only: stops git (SIGTERM to its group: git removes its lock files) when the work is abandoned. */
  signal?: AbortSignal;
}

/** Diffs of large change sets are big; the cap only guards against a runaway, and hitting it is an error. */
const MAX_GIT_OUTPUT = 1024 * 1024 * 1024;

export function createGitRunner(cwd: string): GitRunner {
  const baseEnv: NodeJS.ProcessEnv = fixedGitEnv({ ...process.env, LC_ALL: 'C', LANGUAGE: 'C' });
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
