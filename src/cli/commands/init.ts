import type { Command } from 'commander';
import { z } from 'zod';
import { parseFlags } from '../flags.js';
import { type CommandIo, processIo } from '../io.js';

const initFlags = z.object({ force: z.boolean().default(false), detect: z.boolean().default(true) });

export function registerInit(program: Command, io: () => CommandIo = processIo): void {
  program
    .command('init')
    .summary("write tollgate.config.yaml with the project's own test and lint commands as checks")
    .description(
      'Writes the commented config (the text of docs/config.md) to tollgate.config.yaml at the root of the current git repository, with the project\'s own commands as active checks: package.json scripts (test, lint, typecheck, check; run with npm, pnpm, yarn or bun as the lockfile says), pytest, ruff and mypy as pyproject.toml, tox.ini or noxfile.py configure them, RSpec and RuboCop from the Gemfile, go test and go vet for go.mod, cargo test and clippy for Cargo.toml, and Makefile targets test, check, lint, typecheck. It prints each check and where it came from. The config is policy (docs/policy.md): run by a person at their terminal, init also records it as accepted on this machine, so the next "tollgate run" uses it; under a coding agent or without a terminal it stays pending until a person accepts it. Refuses to replace an existing config file (tollgate.config.yaml or .tollgate.yaml) unless --force is given.',
    )
    .option('--force', 'overwrite the existing config file')
    .option('--no-detect', "write the bare commented template, without looking for the project's commands")
    .addHelpText(
      'after',
      `
Examples:
  $ tollgate init
  $ tollgate init --no-detect
  $ tollgate init --force`,
    )
    .action(async (rawFlags: unknown) => {
      const flags = parseFlags(initFlags, rawFlags);
      const { cwd, env, write } = io();
      const { initProject } = await import('./init-work.js');
      write(await initProject({ cwd, env: env as NodeJS.ProcessEnv, force: flags.force, detect: flags.detect }));
    });
}
