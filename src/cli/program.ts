import { Command, CommanderError } from 'commander';
import { ExitCode, errorMessage, isTollgateError } from '../core/errors.js';
import { loadRedactor } from '../core/pipeline/redact-result.js';
import { TOLLGATE_VERSION } from '../core/version.js';
import type { RegisterCommand } from './commands/index.js';

/**
 * Parse argv with the given commands registered, run one, and turn whatever it throws into one line and a documented
 * exit code. The whole CLI registers what its command table names (main.ts); the scan's own bundle only `scan`
 * (scan-start.ts).
 */
export async function runProgram(argv: readonly string[], registrations: readonly RegisterCommand[]): Promise<number> {
  const program = new Command('tollgate')
    .description('A completion-time validation gate for coding agents.')
    .version(TOLLGATE_VERSION)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });
  for (const register of registrations) register(program);
  try {
    await program.parseAsync(argv as string[], { from: 'node' });
    return process.exitCode === undefined ? ExitCode.passed : Number(process.exitCode);
  } catch (error) {
    // --help and --version end here too; only a real error pays for loading the redactor.
    const redact =
      error instanceof CommanderError
        ? (text: string) => text
        : await loadRedactor().catch(() => (text: string) => text);
    return reportError(error, redact);
  }
}

/** Messages can quote input (a config value, a child's stderr): they are masked like every other output. */
function reportError(error: unknown, redact: (text: string) => string): number {
  if (error instanceof CommanderError) {
    // --help and --version end here too, with exit code 0.
    if (error.exitCode === 0) return ExitCode.passed;
    return ExitCode.usage;
  }
  if (isTollgateError(error)) {
    process.stderr.write(`tollgate: ${redact(error.message)}\n`);
    for (const line of error.details) process.stderr.write(`tollgate: ${redact(line)}\n`);
    return error.exitCode;
  }
  process.stderr.write(`tollgate: internal error: ${redact(errorMessage(error).split('\n')[0]!)}\n`);
  if (process.env.TOLLGATE_DEBUG === '1' && error instanceof Error && error.stack)
    process.stderr.write(`${redact(error.stack)}\n`);
  else
    process.stderr.write(
      'tollgate: rerun with TOLLGATE_DEBUG=1 for the stack, and report it at https://github.com/tollgate-dev/tollgate/issues\n',
    );
  return ExitCode.internal;
}
