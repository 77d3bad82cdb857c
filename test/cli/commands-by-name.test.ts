import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { COMMAND_NAMES, registrationsFor } from '../../src/cli/commands/by-name.js';
import type { RegisterCommand } from '../../src/cli/commands/index.js';

/** Every command's register functions: what a command line that names no command loads. */
const commands = await registrationsFor([]);

/** Every command and subcommand a set of register functions declares, by full name (`hook stop`). */
function declared(registrations: readonly RegisterCommand[]): string[] {
  const program = new Command('tollgate');
  for (const register of registrations) register(program);
  const names: string[] = [];
  const walk = (command: Command, prefix: string[]) => {
    for (const child of command.commands) {
      const path = [...prefix, child.name()];
      names.push(path.join(' '));
      walk(child, path);
    }
  };
  walk(program, []);
  return names;
}

describe('commands loaded by name (main.ts loads only the command a command line names)', () => {
  test('the table lists every command, in the order help lists them', () => {
    const topLevel = declared(commands).filter((name) => !name.includes(' '));
    expect(COMMAND_NAMES).toEqual(topLevel);
  });

  test('naming a command declares exactly that command with all its subcommands', async () => {
    const all = declared(commands);
    for (const name of COMMAND_NAMES) {
      const own = all.filter((full) => full === name || full.startsWith(`${name} `));
      expect(declared(await registrationsFor([name, '--flag'])), name).toEqual(own);
    }
  });

  test('a command line that names no command (help, a typo, nothing) declares every command', async () => {
    const all = declared(commands);
    for (const args of [[], ['--help'], ['help', 'run'], ['rnu'], ['--version']]) {
      expect(declared(await registrationsFor(args)), args.join(' ')).toEqual(all);
    }
  });
});
