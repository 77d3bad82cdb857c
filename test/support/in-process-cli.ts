import { Command } from 'commander';
import type { CommandIo } from '../../src/cli/io.js';

/**
 * `tollgate …` run inside the test process, with only the commands under test registered and their own cwd, env and
 * stdout: fast, and what runs is the source (the CLI tests in test/cli run the built bundle instead).
 */

/** A command's `register…(program, io)`; `Io` is `CommandIo` or a command's richer one (`ReviewCommandIo`). */
export type RegisterCommand<Io extends CommandIo = CommandIo> = (program: Command, io: () => Io) => void;

export interface InProcessOptions<Io extends CommandIo = CommandIo> {
  register: readonly RegisterCommand<Io>[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Extra fields of a richer io (a GitHub client, a clock). */
  io?: Omit<Io, keyof CommandIo>;
}

/** The program with those commands; what they and commander write goes to `write`. */
export function programWith<Io extends CommandIo>(
  options: InProcessOptions<Io>,
  write: (text: string) => void,
): Command {
  const program = new Command('tollgate').exitOverride().configureOutput({ writeOut: write, writeErr: write });
  const io = () => ({ ...options.io, cwd: options.cwd, env: options.env, write }) as Io;
  for (const register of options.register) register(program, io);
  return program;
}

export interface InProcessRun {
  /** What the command wrote (its output, and commander's help or error text). */
  output: string;
  /** `process.exitCode` as the command left it (0 when unset); reset afterwards. */
  exitCode: number;
}

/**
 * Runs `tollgate ARGS`. A usage error rejects (commander's, or the command's own `TollgateError`); `--help` resolves
 * with the help as output.
 */
export async function runInProcess<Io extends CommandIo>(
  args: readonly string[],
  options: InProcessOptions<Io>,
): Promise<InProcessRun> {
  let output = '';
  const program = programWith(options, (text) => {
    output += text;
  });
  process.exitCode = undefined;
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (error) {
    // --help and --version end in a CommanderError with exit code 0.
    if (!(error instanceof Error && 'exitCode' in error && error.exitCode === 0)) {
      process.exitCode = undefined;
      throw error;
    }
  }
  // Read, then cleared: a code left set would fail the test runner's own exit.
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { output, exitCode };
}
