import type { Command } from 'commander';

/**
 * A command file exports `register(program)`: it declares the command's flags, summary and `Example:` lines, and
 * imports its work lazily so that `tollgate --help` stays fast.
 */
export type RegisterCommand = (program: Command) => void;
