import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const initFlags = z.object({ force: z.boolean().default(false) });

export function registerInit(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('init')
    .summary('write a commented tollgate.config.yaml at the repository root')
    .description(
      'Writes the commented default config (the same text as docs/config.md) to tollgate.config.yaml at the root of the current git repository. Refuses to replace an existing config file (tollgate.config.yaml or .tollgate.yaml) unless --force is given.',
    )
    .option('--force', 'overwrite the existing config file')
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate init
  $ tollgate init --force`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(initFlags, rawFlags);
      const { cwd, env, write } = io();
      const { findRepoRoot, writeConfigTemplate } = await import('../../core/config/index.js');
      const repoRoot = await findRepoRoot(cwd, env);
      const written = await writeConfigTemplate({ repoRoot, force: flags.force });
      write(
        `${written.overwritten ? 'overwrote' : 'wrote'} ${written.file}: list your project's commands under "checks:", then run "tollgate run"\n`,
      );
    });
}
