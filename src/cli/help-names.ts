/**
 * Names that only help texts list (the validators for `--only`/`--skip`). Their registry is the largest module
 * graph in tollgate, so it is loaded only when help is asked for, never on a command's way to its work.
 */
let validatorNames: readonly string[] | null = null;

export async function loadHelpNames(): Promise<void> {
  const { validators } = await import('../validators/index.js');
  validatorNames = validators.map((tool) => tool.name);
}

export function validatorNamesForHelp(): string {
  return validatorNames ? validatorNames.join(', ') : 'as `tollgate config show` lists them';
}

/** Does this command line ask for help (`--help`, `-h`, `help …`)? */
export function asksForHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h') || args[0] === 'help';
}
