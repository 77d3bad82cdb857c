/**
 * Expected failures. Each carries a code and a one-line message that says where, what, and what was expected;
 * `src/cli/main.ts` renders it and picks the exit code. Anything that is not a TollgateError is an internal error.
 */

/** Documented exit codes (README "Exit codes", docs/exit-codes.md). */
export const ExitCode = {
  passed: 0,
  failed: 1,
  usage: 2,
  internal: 3,
  /** `install`: the files were written, but the agent will not run the hook (docs/exit-codes.md). */
  notInEffect: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export type ErrorCode =
  | 'usage' // a bad flag or argument
  | 'config' // tollgate.config.yaml is invalid
  | 'not_a_repo' // run outside a git work tree
  | 'bad_revision' // --base names nothing git knows
  | 'lock_busy' // another run holds the repo lock and --no-wait was given
  | 'not_found' // a run id, finding id or file that does not exist
  | 'io' // a file tollgate must read or write could not be
  | 'not_in_effect' // an install the agent will not act on (a Codex hook left untrusted)
  | 'relocated_work_tree'; // the repository's own config points git at a work tree other than the one tollgate runs in

const exitCodeFor: Record<ErrorCode, ExitCode> = {
  usage: ExitCode.usage,
  config: ExitCode.usage,
  not_a_repo: ExitCode.usage,
  bad_revision: ExitCode.usage,
  lock_busy: ExitCode.usage,
  not_found: ExitCode.usage,
  io: ExitCode.internal,
  not_in_effect: ExitCode.notInEffect,
  relocated_work_tree: ExitCode.usage,
};

export class TollgateError extends Error {
  readonly code: ErrorCode;
  /** Further lines (e.g. every config problem after the first). */
  readonly details: readonly string[];

  constructor(code: ErrorCode, message: string, details: readonly string[] = []) {
    super(message);
    this.name = 'TollgateError';
    this.code = code;
    this.details = details;
  }

  get exitCode(): ExitCode {
    return exitCodeFor[this.code];
  }
}

export function isTollgateError(error: unknown): error is TollgateError {
  return error instanceof TollgateError;
}

/** The message of anything thrown, for places that must not let a non-Error escape. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Errors of the disk, not of tollgate: a full, read-only or forbidden place to write. */
const WRITE_FAILURE_CODES = new Set(['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EDQUOT', 'EIO', 'ENOTDIR']);

/** A write that failed for a reason of the machine (tollgate's `io` errors carry such a cause in their message). */
export function isWriteFailure(error: unknown): boolean {
  if (error instanceof TollgateError) return error.code === 'io';
  return WRITE_FAILURE_CODES.has((error as NodeJS.ErrnoException | null)?.code ?? '');
}
