import type { Command } from 'commander';

/**
 * The `tollgate hook` group. Subcommands come from several files (`stop` in hook.ts, `pre-commit` from the
 * secret-scanning commands), so each registers itself on the group this returns, creating it on first use. A module
 * of its own: `tollgate scan` registers `hook pre-commit` beside it and must not load every agent's hook code to do so.
 */
export function hookGroup(program: Command): Command {
  const existing = program.commands.find((command) => command.name() === 'hook');
  if (existing) return existing;
  return program
    .command('hook')
    .summary('commands that agents and git run as hooks')
    .description(
      'Entry points for hooks: `stop` gates an agent\'s "done" on validation. Install them with `tollgate install <agent>`.',
    )
    .addHelpText(
      'after',
      `
Example:
  $ tollgate hook stop --agent cursor`,
    );
}
