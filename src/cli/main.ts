import { registrationsFor } from './commands/by-name.js';
import { asksForHelp, loadHelpNames } from './help-names.js';
import { runProgram } from './program.js';

/** Parse argv, run one command, and turn whatever it throws into one line and a documented exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  if (asksForHelp(argv.slice(2))) await loadHelpNames();
  return runProgram(argv, await registrationsFor(argv.slice(2)));
}
